/**
 * A transcript as a readable Markdown document: per turn the prompt, the answer, tool calls in one
 * line each, the plan as a checklist, changed files and a status line.
 */
import type { Block, Plan, ToolBlock, Transcript, Turn } from './model';

export interface MarkdownExportOptions {
  /** Overrides the transcript's title. */
  title?: string;
}

/** Parameters worth showing in a tool's one-line summary, most telling first. */
const KEY_PARAMETERS = [
  'path',
  'file',
  'filename',
  'file_path',
  'command',
  'cmd',
  'url',
  'query',
  'pattern',
  'name',
];
const MAX_PARAMETERS = 4;
const MAX_INLINE = 120;

/** Text as an inline code span, whatever backticks it holds. */
function code(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** Closes a code fence left open (a streaming or cut answer) so it cannot swallow the rest. */
function closeFences(text: string): string {
  const fences = text.split('\n').filter((l) => /^\s*(```|~~~)/.test(l)).length;
  return fences % 2 === 1 ? `${text}\n\`\`\`` : text;
}

function parameterValue(v: unknown): string | undefined {
  if (typeof v === 'number' || typeof v === 'boolean') return code(String(v));
  if (typeof v !== 'string') return undefined;
  if (v.includes('\n')) return `(${v.split('\n').length} lines)`;
  return v.length > MAX_INLINE ? `(${v.length} characters)` : code(v);
}

function toolLine(tool: ToolBlock): string {
  const names = Object.keys(tool.parameters);
  const ordered = [
    ...KEY_PARAMETERS.filter((k) => names.includes(k)),
    ...names.filter((k) => !KEY_PARAMETERS.includes(k)),
  ];
  const shown: string[] = [];
  for (const k of ordered) {
    const v = parameterValue(tool.parameters[k]);
    if (v !== undefined) shown.push(`${k}: ${v}`);
    if (shown.length === MAX_PARAMETERS) break;
  }
  const params = shown.length > 0 ? ` — ${shown.join(', ')}` : '';
  return `- Tool ${code(tool.name || 'unknown')} (${tool.status})${params}`;
}

function blockText(b: Block, turn: Turn): string | undefined {
  switch (b.type) {
    case 'markdown':
    case 'text':
      return b.text.trim() ? closeFences(b.text.trimEnd()) : undefined;
    case 'thought':
      return b.text.trim() ? quote(`**Thinking:** ${b.text.trim()}`) : undefined;
    case 'message':
      return b.text.trim() && b.text !== turn.userMessage.text
        ? quote(`**Message:** ${b.text.trim()}`)
        : undefined;
    case 'tool':
      return toolLine(b);
    case 'generic': {
      const json = JSON.stringify(b.payload) ?? '';
      return `- Event ${code(b.kind || 'unknown')}: ${code(json.length > MAX_INLINE ? `${json.slice(0, MAX_INLINE)}…` : json)}`;
    }
  }
}

function planText(plan: Plan): string {
  const lines = plan.todos.map((t) => {
    const content = t.content.replace(/\s*\n\s*/g, ' ');
    const box = t.status === 'completed' ? '[x]' : '[ ]';
    return t.status === 'active' ? `- ${box} **${content}** (in progress)` : `- ${box} ${content}`;
  });
  return ['**Plan**', '', ...lines].join('\n');
}

function statusLine(turn: Turn): string {
  switch (turn.status) {
    case 'completed':
      return '_Status: completed_';
    case 'running':
      return `_Status: running${turn.phase && turn.phase !== 'running' ? ` (${turn.phase})` : ''}_`;
    case 'queued':
      return `_Status: queued${turn.queuePosition !== undefined ? ` (position ${turn.queuePosition})` : ''}_`;
    case 'aborted':
      return `_Status: aborted${turn.abortReason ? ` — ${turn.abortReason}` : ''}_`;
    case 'error': {
      const err = turn.error;
      return `**Status: error** — ${err ? `${err.message}${err.code ? ` (${err.code})` : ''}` : 'unknown error'}`;
    }
  }
}

function turnText(turn: Turn, n: number): string {
  const parts: string[] = [`## Turn ${n}`];
  const user = turn.userMessage;
  const facts = [user.mode && `mode ${code(user.mode)}`, user.effort && `effort ${code(user.effort)}`].filter(
    Boolean,
  );
  parts.push(`**Prompt**${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`);
  parts.push(user.text.trim() ? quote(user.text.trimEnd()) : '> _(no prompt text)_');
  if (user.files.length > 0)
    parts.push(`Attached: ${user.files.map((f) => code(f.name || f.key)).join(', ')}`);

  // Consecutive one-line entries (tools, events) form one list.
  let list: string[] = [];
  const flush = (): void => {
    if (list.length > 0) parts.push(list.join('\n'));
    list = [];
  };
  for (const b of turn.blocks) {
    const text = blockText(b, turn);
    if (text === undefined) continue;
    if (b.type === 'tool' || b.type === 'generic') list.push(text);
    else {
      flush();
      parts.push(text);
    }
  }
  flush();
  if (turn.plan && turn.plan.todos.length > 0) parts.push(planText(turn.plan));
  if (turn.files.length > 0) {
    parts.push(['**Files**', '', ...turn.files.map((f) => `- ${f.change} ${code(f.path)}`)].join('\n'));
  }
  if (turn.outputFiles && turn.outputFiles.length > 0) {
    parts.push(`Results: ${turn.outputFiles.map((f) => code(f.name || f.key)).join(', ')}`);
  }
  parts.push(statusLine(turn));
  return parts.join('\n\n');
}

/** Renders the whole transcript. */
export function transcriptToMarkdown(t: Transcript, options: MarkdownExportOptions = {}): string {
  const title = options.title || t.title || `Session ${t.sessionId}`;
  const count = `${t.turns.length} turn${t.turns.length === 1 ? '' : 's'}`;
  const head = `# ${title.replace(/\s*\n\s*/g, ' ')}\n\n_Session ${code(t.sessionId)} · ${count}_`;
  const body = t.turns.map((turn, i) => turnText(turn, i + 1));
  return [head, ...body].join('\n\n---\n\n') + '\n';
}
