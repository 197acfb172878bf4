/**
 * What the workbench benchmark injects into every frame of the page (Playwright `addInitScript`,
 * before any of the frame's own scripts). It does something only in a webview's inner frame (Den's
 * pages are the only webviews in the benchmark's workbench): there it records, for each `⟦i⟧` mark in the agent's text, the wall-clock
 * time of the first task after the DOM change that brought it: Den changes its DOM in
 * `requestAnimationFrame` callbacks, and a task queued from there runs after that frame's rendering
 * (style, layout, paint), so this is when the frame showing it was painted. Wall clock (`Date.now()`): the same clock as the
 * emulator's event timestamps and the bare client's receive times, on one machine.
 *
 * Serialized with `Function.prototype.toString`: self-contained, no imports, no closures.
 */
export interface ProbeState {
  /** Mark index → wall-clock ms of the frame that first showed it. */
  marks: Record<number, number>;
  /** Mark index → wall-clock ms when the host's post carrying it reached the page (`countPosts`). */
  arrived: Record<number, number>;
  posts: { count: number; bytes: number; first: number; last: number };
  /**
   * The page's animation-frame callbacks since `countPosts` (at most 20,000): `wait` from the
   * `requestAnimationFrame` call to the callback (the wait for the frame), `run` the callback's own
   * time (Den's DOM work); ms on the page's clock.
   */
  frames?: { wait: number[]; run: number[] };
  /** Wall-clock ms when the page was written into the frame (seen by the probe's poll, ≤ 5 ms late). */
  pageAt?: number;
  /** Wall-clock ms when the first message from the host reached the page, and its JSON length. */
  firstPostAt?: number;
  firstPostBytes?: number;
}

export function installProbe(): void {
  if (window === window.top) return;
  const w = window as unknown as { __denBench?: ProbeState; __denBenchStop?: () => void };
  // Installed again on purpose: when the frame navigates from about:blank the init script runs
  // again in the same window, and an earlier install's timer may not have survived; the bench also
  // installs it explicitly in a shown panel. The state is kept, the old observer and timer stopped.
  w.__denBenchStop?.();
  const state: ProbeState = (w.__denBench ??= {
    marks: {},
    arrived: {},
    posts: { count: 0, bytes: 0, first: 0, last: 0 },
  });
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
      setTimeout(frame, 0);
    }
  });
  // VS Code loads a webview's inner frame (`pending-frame`, then `active-frame`) with `…/pre/fake.html`,
  // then writes the page into it (document.open, which also changes its URL): attach there, and
  // scan what it already shows.
  const isWebviewContent = (): boolean => {
    try {
      return /^(active|pending)-frame$/.test(window.frameElement?.id ?? '');
    } catch {
      return false; // a cross-origin parent: not a webview's content frame
    }
  };
  let attached: Document | undefined;
  const attach = (): void => {
    if (attached === document || !document.body || !isWebviewContent()) return;
    attached = document;
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    pending.push(document.body);
    if (!scheduled) {
      scheduled = true;
      setTimeout(frame, 0);
    }
  };
  // Den's page (its `#app`) once written into the frame: when, and a listener for the host's first
  // post (added after the write, which drops the window's earlier listeners).
  let sawPage = false;
  const notePage = (): void => {
    if (sawPage || !isWebviewContent() || !document.getElementById('app')) return;
    sawPage = true;
    state.pageAt ??= Date.now();
    window.addEventListener('message', (e: MessageEvent) => {
      const data = e.data as { type?: unknown } | undefined;
      if (state.firstPostAt !== undefined || !data || typeof data.type !== 'string') return;
      state.firstPostAt = Date.now();
      state.firstPostBytes = JSON.stringify(data).length;
    });
  };
  // Polled every 5 ms until attached and Den's page seen, then every 250 ms: a 5 ms timer firing all through a turn cost
  // the shared renderer thread about 2 % (300 ms in a 10 s turn), work a person's workbench never does.
  let timer = setInterval(() => {
    attach();
    notePage();
    if (attached !== document || !sawPage) return;
    clearInterval(timer);
    timer = setInterval(attach, 250);
  }, 5);
  w.__denBenchStop = () => {
    observer.disconnect();
    clearInterval(timer);
  };
  attach();
}

/**
 * Counts the host's posts to the page and their size into the probe's state, and notes when each
 * mark arrived (what splits the latency into the way to the page and the page's own work), from now on (run in
 * the panel's frame once it is shown; a listener added by the init script does not survive the
 * page being written into the frame).
 */
export function countPosts(): void {
  const w = window as unknown as { __denBench?: ProbeState; __denPosts?: boolean };
  if (w.__denPosts) return;
  w.__denPosts = true;
  // Times each animation-frame callback of the page: the page changes its DOM there, so the page's
  // part of emit → painted splits into the wait for the frame, Den's work in it, and the rest of the
  // frame (style, layout, paint) up to the probe's task after it.
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb: FrameRequestCallback): number => {
    const asked = performance.now();
    return raf((t) => {
      const start = performance.now();
      try {
        cb(t);
      } finally {
        const frames = w.__denBench ? (w.__denBench.frames ??= { wait: [], run: [] }) : undefined;
        if (frames && frames.run.length < 20_000) {
          frames.wait.push(start - asked);
          frames.run.push(performance.now() - start);
        }
      }
    });
  };
  window.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as { type?: unknown } | undefined;
    const state = w.__denBench;
    if (!state || !data || typeof data !== 'object' || typeof data.type !== 'string') return;
    const now = Date.now();
    const text = JSON.stringify(data);
    state.posts.count++;
    state.posts.bytes += text.length;
    for (const m of text.matchAll(/⟦(\d+)⟧/g)) {
      const i = Number(m[1]);
      if (state.arrived[i] === undefined) state.arrived[i] = now;
    }
    if (!state.posts.first) state.posts.first = now;
    state.posts.last = now;
  });
}
