/**
 * What the workbench benchmark injects into every frame of the page (Playwright `addInitScript`,
 * before any of the frame's own scripts). It does something only in a webview's inner frame (Den's
 * pages are the only webviews in the benchmark's workbench): there it records, for each `⟦i⟧` mark in the agent's text, the wall-clock
 * time of the first animation frame after it entered the DOM (the frame that paints it). Wall clock (`Date.now()`): the same clock as the
 * emulator's event timestamps and the bare client's receive times, on one machine.
 *
 * Serialized with `Function.prototype.toString`: self-contained, no imports, no closures.
 */
export interface ProbeState {
  /** Mark index → wall-clock ms of the frame that first showed it. */
  marks: Record<number, number>;
  posts: { count: number; bytes: number; first: number; last: number };
}

export function installProbe(): void {
  const w = window as unknown as { __denBench?: ProbeState };
  if (w.__denBench) return; // installed already (the init script, then an explicit call)
  const state: ProbeState = { marks: {}, posts: { count: 0, bytes: 0, first: 0, last: 0 } };
  w.__denBench = state;
  const re = /⟦(\d+)⟧/g;
  let pending: Node[] = [];
  let scheduled = false;
  const frame = (): void => {
    scheduled = false;
    const t = Date.now();
    const nodes = pending;
    pending = [];
    for (const n of nodes) {
      const text = n.textContent;
      if (!text || !text.includes('⟦')) continue;
      for (const m of text.matchAll(re)) {
        const i = Number(m[1]);
        if (state.marks[i] === undefined) state.marks[i] = t;
      }
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') pending.push(r.target);
      else r.addedNodes.forEach((n) => pending.push(n));
    }
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(frame);
    }
  });
  // VS Code writes a webview's page into its inner frame (`…/pre/fake.html`) after this script ran:
  // attach to each new document there, and scan what it already shows. Other frames (the workbench, other iframes) are left alone.
  let attached: Document | undefined;
  const attach = (): void => {
    if (attached === document || !document.body || !location.pathname.endsWith('/fake.html')) return;
    attached = document;
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    pending.push(document.body);
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(frame);
    }
  };
  if (window === window.top) return;
  setInterval(attach, 5);
  attach();
}

/**
 * Counts the host's posts to the page and their size into the probe's state, from now on (run in
 * the panel's frame once it is shown; a listener added by the init script does not survive the
 * page being written into the frame).
 */
export function countPosts(): void {
  const w = window as unknown as { __denBench?: ProbeState; __denPosts?: boolean };
  if (w.__denPosts) return;
  w.__denPosts = true;
  window.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as { type?: unknown } | undefined;
    const state = w.__denBench;
    if (!state || !data || typeof data !== 'object' || typeof data.type !== 'string') return;
    const now = Date.now();
    state.posts.count++;
    state.posts.bytes += JSON.stringify(data).length;
    if (!state.posts.first) state.posts.first = now;
    state.posts.last = now;
  });
}
