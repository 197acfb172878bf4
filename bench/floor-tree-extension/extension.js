// BENCH ONLY (bench/workbench.ts, the tree and floor parts; docs/benchmarks.md, "Issue 26: the
// Sessions tree's first row"): the floor of Den's first row after a window reload. Its view
// `denFloor.sessions` sits in Den's container, so it is restored with Den's and activates on the
// same event (the view shown); `denFloor.alone`, the same rows in the Explorer, is the floor of a
// workbench in which Den does not activate (its container not shown). On activation it
// fetches the same first page Den asks for, from the same address (with `floor=1`, so the bench's
// proxy tells the two answers apart), and lists its rows at once, in Den's shape: day groups at the
// root, expanded, sessions under them. No context keys, no welcome, no commands, no
// SecretStorage (unless DEN_FLOOR_READ_SECRET=1, below).
const vscode = require('vscode');

const DAY = 24 * 60 * 60 * 1000;

function dayOf(s, now) {
  const at = Number(s.updatedAt ?? s.updated_at ?? s.createdAt ?? s.created_at ?? 0);
  return now - at < DAY ? 'Today' : 'Earlier';
}

exports.activate = function activate(context) {
  const base = String(vscode.workspace.getConfiguration('den').get('baseUrl') ?? '').replace(/\/+$/, '');
  const key = process.env.DEN_API_KEY ?? '';
  // DEN_FLOOR_READ_SECRET=1: first reads SecretStorage (nothing there), as Den does before its
  // first request: a round trip to the workbench.
  const ready =
    process.env.DEN_FLOOR_READ_SECRET === '1'
      ? Promise.resolve(context.secrets.get('denFloor.apiKey')).catch(() => undefined)
      : Promise.resolve();
  const page = ready
    .then(() =>
      fetch(`${base}/sessions?page=1&limit=50&sort=updatedAt&order=desc&floor=1`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    )
    .then((r) => r.json())
    .then((body) => {
      const now = Date.now();
      const groups = new Map();
      for (const s of body.sessions ?? body.chats ?? []) {
        const g = dayOf(s, now);
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g).push(s);
      }
      return groups;
    })
    .catch(() => new Map());
  const provider = {
    async getChildren(n) {
      const groups = await page;
      if (!n) return [...groups.keys()].map((g) => ({ group: g }));
      if (n.group) return groups.get(n.group) ?? [];
      return [];
    },
    getTreeItem(n) {
      if (n.group) {
        const item = new vscode.TreeItem(n.group, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `day:${n.group}`;
        return item;
      }
      const item = new vscode.TreeItem(n.title || n.sessionId, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = n.sessionId ?? n.chatId;
      return item;
    },
  };
  for (const id of ['denFloor.sessions', 'denFloor.alone'])
    context.subscriptions.push(vscode.window.createTreeView(id, { treeDataProvider: provider }));
};
