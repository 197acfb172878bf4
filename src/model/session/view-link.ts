/**
 * The link between a session's host and the webview currently attached to it: whether posts can
 * go out (shown, loaded, `ready` received), which catch-up a (re)loaded webview needs, and the
 * messages that wait for it (probes, focus). No `vscode` import.
 */
import type { Clock } from '../shared/clock';
import type { DeltaBatcher, DirectMessage } from './delta-batcher';
import type { HostMessage, WebviewDigest } from '../../protocol/session-panel/messages';

/** A `revealMatch` post, without its `seq`. */
export type RevealMatch = Extract<DirectMessage, { type: 'revealMatch' }>;

/** How long a shown panel may stay silent before the host catches it up without a `ready`. */
const READY_GRACE_MS = 1_500;

interface PendingProbe {
  resolve: (d: WebviewDigest) => void;
  reject: (e: Error) => void;
  timer: unknown;
  sent: boolean;
}

/** Who cares whether the webview is shown (the turns' side: its watch looks only while it is). */
export interface ShownListener {
  /** Called after `visible` may have changed. */
  shownChanged(): void;
}

const NOBODY: ShownListener = { shownChanged: () => {} };

export class ViewLink {
  #postFn?: (m: HostMessage) => void;
  #shown = false;
  /** The attached webview got an `init` (it has a view to update). */
  #initialized = false;
  #grace: unknown;
  readonly #probes = new Map<string, PendingProbe>();
  #probeCount = 0;
  #wantFocus = false;
  /** A match to reveal once the webview is shown (the latest asked). */
  #wantReveal?: RevealMatch;
  readonly #taps = new Set<(m: HostMessage) => void>();

  readonly #batcher: DeltaBatcher;
  readonly #clock: Clock;
  readonly #listener: ShownListener;
  constructor(batcher: DeltaBatcher, clock: Clock, listener: ShownListener = NOBODY) {
    this.#batcher = batcher;
    this.#clock = clock;
    this.#listener = listener;
  }

  /** Whether posts reach a webview now. */
  get visible(): boolean {
    return this.#batcher.visible;
  }

  post(m: HostMessage): void {
    for (const t of this.#taps) t(m);
    this.#postFn?.(m);
  }

  /** A new webview (it loads, then says `ready`; nothing is posted before). */
  attach(post: (m: HostMessage) => void): void {
    this.#postFn = post;
    this.#shown = true;
    this.#initialized = false;
    this.#cancelGrace();
    this.#batcher.setVisible(false);
    this.#listener.shownChanged();
  }

  detach(): void {
    this.#postFn = undefined;
    this.#shown = false;
    this.#initialized = false;
    this.#cancelGrace();
    this.#batcher.setVisible(false);
    for (const [id, p] of this.#probes) {
      this.#clock.clearTimeout(p.timer);
      p.reject(new Error('the panel was closed'));
      this.#probes.delete(id);
    }
    this.#listener.shownChanged();
  }

  setVisible(visible: boolean): void {
    if (visible === this.#shown) return;
    this.#shown = visible;
    this.#cancelGrace();
    if (!visible) {
      this.#batcher.setVisible(false);
      this.#listener.shownChanged();
      return;
    }
    // A hidden webview's context is not kept, so the page reloads and says `ready`, which brings an init. A
    // page that was kept instead says nothing: catch it up after a grace period.
    if (!this.#initialized || !this.#postFn) return;
    this.#grace = this.#clock.setTimeout(() => {
      this.#grace = undefined;
      if (!this.#shown || !this.#postFn) return;
      this.#batcher.setVisible(true);
      this.#afterShown();
    }, READY_GRACE_MS);
  }

  /** The webview loaded (or saw a gap): `lastSeq` is what it applied (null: nothing). */
  ready(lastSeq: number | null): void {
    if (!this.#postFn) return;
    this.#cancelGrace();
    this.#shown = true;
    const continuous = this.#initialized && lastSeq !== null && lastSeq === this.#batcher.seq;
    if (!this.#batcher.visible) this.#batcher.setVisible(true, continuous ? 'catch-up' : 'init');
    else if (continuous) this.#batcher.flush();
    else this.#batcher.sendInit();
    this.#initialized = true;
    this.#afterShown();
  }

  send(m: DirectMessage): boolean {
    return this.#batcher.send(m);
  }

  focusComposer(): void {
    if (!this.#batcher.send({ type: 'focusComposer' })) this.#wantFocus = true;
  }

  /** Reveals a match (Search in Sessions); waits for the webview when it is not shown or loaded. */
  revealMatch(m: RevealMatch): void {
    this.#wantReveal = this.#initialized && this.#batcher.send(m) ? undefined : m;
  }

  /** Asks the webview for its digest; waits for it to be shown when it is not. */
  probe(timeoutMs = 10_000): Promise<WebviewDigest> {
    const id = `probe-${++this.#probeCount}`;
    return new Promise<WebviewDigest>((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => {
        this.#probes.delete(id);
        reject(new Error(`the webview did not answer probe ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const p: PendingProbe = { resolve, reject, timer, sent: false };
      this.#probes.set(id, p);
      p.sent = this.#batcher.send({ type: 'probe', id });
    });
  }

  probeResult(id: string, digest: WebviewDigest): void {
    const p = this.#probes.get(id);
    if (!p) return;
    this.#probes.delete(id);
    this.#clock.clearTimeout(p.timer);
    p.resolve(digest);
  }

  /** Test hook: sees every post. */
  tap(listener: (m: HostMessage) => void): () => void {
    this.#taps.add(listener);
    return () => this.#taps.delete(listener);
  }

  #afterShown(): void {
    // Also those sent before: a page that reloaded since never saw them.
    for (const [id, p] of this.#probes) p.sent = this.#batcher.send({ type: 'probe', id });
    if (this.#wantFocus && this.#batcher.send({ type: 'focusComposer' })) this.#wantFocus = false;
    if (this.#wantReveal && this.#batcher.send(this.#wantReveal)) this.#wantReveal = undefined;
    this.#listener.shownChanged();
  }

  #cancelGrace(): void {
    if (this.#grace === undefined) return;
    this.#clock.clearTimeout(this.#grace);
    this.#grace = undefined;
  }
}
