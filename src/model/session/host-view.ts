/**
 * What a session's panel shows besides the transcript: the composer, the connection, the notice
 * and the title, each posted (through the batcher) only when it changed. No `vscode` import.
 */
import type { Choice } from './composer-choice';
import { presentError } from '../shared/error-text';
import type { DeltaBatcher, InitBody } from './delta-batcher';
import type {
  AttachmentView,
  ComposerState,
  ConnectionView,
  FileStatusView,
  Notice,
  SendOutcome,
} from '../../protocol/session-panel/messages';
import type { ReviewedView } from '../../protocol/session-panel/reviewed';
import type { TranscriptReader } from './session-transcript';
import { openTurns, transcriptViews } from './turn-view';

/** What the host reads from the extension's settings, each time it needs it. */
export interface HostSettings {
  /** `den.basePrompt`, sent as `base_prompt` when not empty. */
  basePrompt?: string;
  /** The service's host name, for the connection state's tooltip in the panel's header. */
  service: string;
  /** Why nothing can be sent now (not signed in…). */
  disabledReason?: string;
  /** `vscode.l10n.bundle`, for the webview's texts (absent: English). */
  l10n?: Record<string, string>;
}

/** The turns' side of the connection: the live streams and the history's loading. */
export interface ConnectionSource {
  /** The live streams' state; undefined when none is open. */
  streams(): ConnectionView | undefined;
  /** The history is being fetched. */
  readonly loading: boolean;
}

/** Where the view's facts come from (each an object owned elsewhere, read when the view is built). */
export interface HostViewSource {
  /** The transcript store: the turns, the title. */
  transcript: Pick<TranscriptReader, 'sessionId' | 'value' | 'title'>;
  /** The extension's settings, read each time. */
  settings: { settings(): HostSettings };
  /** The composer's mode and fast/think (its owner is the session's `ComposerChoice`). */
  choice: { readonly current: Choice };
  /** The composer's chips (the session's `AttachmentList`). */
  attachments: { views(): AttachmentView[] };
  /** Told when the title shown changed. */
  events: { titleChanged(): void };
}

/** No stream, no loading: until the turns' side is connected (`connectTo`). */
const NO_CONNECTION: ConnectionSource = { streams: () => undefined, loading: false };

export class HostView {
  /** A turn start is on its way. */
  sending = false;
  /** Whether the session is new with no turn yet: its composer offers attempts (the host says). */
  newSession: () => boolean = () => false;
  /** Unix ms until which the service asked not to start turns (429; kept by `RateLimitWait`). */
  rateLimitedUntil?: number;
  /** The task of the message held back by a 429, if any. */
  heldText?: string;
  /** Why loading or following failed, shown while no stream is open. */
  failure?: ConnectionView;
  #noticeValue: Notice | null = null;
  #fileStatusValue: FileStatusView[] = [];
  #reviewComments = 0;
  #preview = false;
  #reviewedValue: ReviewedView[] = [];
  /** The lists last posted (`fileStatus`, `reviewed`), as JSON. */
  readonly #lastLists = new Map<string, string>();
  #lastComposer = '';
  #lastConnection = '';
  #lastTitle: string;

  readonly #src: HostViewSource;
  readonly #batcher: Pick<DeltaBatcher, 'pushView' | 'pushOnce'>;
  #connection = NO_CONNECTION;
  constructor(src: HostViewSource, batcher: Pick<DeltaBatcher, 'pushView' | 'pushOnce'>) {
    this.#src = src;
    this.#batcher = batcher;
    this.#lastTitle = src.transcript.title;
  }

  /** Where the connection shown comes from (the turns' side, made after the view). */
  connectTo(source: ConnectionSource): void {
    this.#connection = source;
  }

  get notice(): Notice | null {
    return this.#noticeValue;
  }

  /** The whole view, for `init`. */
  initBody(): InitBody {
    return {
      session: {
        sessionId: this.#src.transcript.sessionId,
        title: this.#src.transcript.title,
        service: this.#src.settings.settings().service,
      },
      turns: transcriptViews(this.#src.transcript.value),
      composer: this.composer(),
      connection: this.connection(),
      notice: this.#noticeValue,
      fileStatus: this.#fileStatusValue,
      reviewComments: this.#reviewComments,
      reviewed: this.#reviewedValue,
      preview: this.#preview,
      l10n: this.#src.settings.settings().l10n ?? null,
    };
  }

  /** Posts the files' states against the workspace when they changed. */
  setFileStatus(files: FileStatusView[]): void {
    if (!this.#listChanged('fileStatus', files)) return;
    this.#fileStatusValue = files;
    this.#batcher.pushView({ type: 'fileStatus', files });
  }

  /** Posts how many open line comments Send Feedback would send, when it changed. */
  setReviewComments(open: number): void {
    if (open === this.#reviewComments) return;
    this.#reviewComments = open;
    this.#batcher.pushView({ type: 'reviewComments', open });
  }

  /** Posts whether the panel shows the session as the preview, when it changed. */
  setPreview(preview: boolean): void {
    if (preview === this.#preview) return;
    this.#preview = preview;
    this.#batcher.pushView({ type: 'panel', preview });
  }

  /** Whether the panel shows the session as the preview. */
  get preview(): boolean {
    return this.#preview;
  }

  /** Posts the session's reviewed marks when they changed. */
  setReviewed(files: ReviewedView[]): void {
    if (!this.#listChanged('reviewed', files)) return;
    this.#reviewedValue = files;
    this.#batcher.pushView({ type: 'reviewed', files });
  }

  /** Whether a list differs from the one last posted under `type` (and remembers it). */
  #listChanged(type: 'fileStatus' | 'reviewed', files: unknown[]): boolean {
    const key = JSON.stringify(files);
    if (key === (this.#lastLists.get(type) ?? '[]')) return false;
    this.#lastLists.set(type, key);
    return true;
  }

  composer(): ComposerState {
    const s = this.#src.settings.settings();
    const open = openTurns(this.#src.transcript.value);
    const c: ComposerState = {
      ...this.#src.choice.current,
      attachments: this.#src.attachments.views(),
      running: open.length > 0,
      queued: open.filter((t) => t.status === 'queued').length,
      sending: this.sending,
    };
    if (this.newSession()) c.attempts = true;
    if (this.rateLimitedUntil !== undefined && this.rateLimitedUntil > Date.now()) {
      c.rateLimitedUntil = this.rateLimitedUntil;
    }
    if (this.heldText !== undefined) c.held = this.heldText;
    if (s.disabledReason) c.disabledReason = s.disabledReason;
    return c;
  }

  connection(): ConnectionView {
    return (
      this.#connection.streams() ??
      this.failure ??
      (this.#connection.loading ? { state: 'loading' } : { state: 'idle' })
    );
  }

  /**
   * The webview already shows the composer as it is now (it changed mode or effort itself): the
   * next init has it, and it is not echoed back.
   */
  composerShown(): void {
    this.#lastComposer = JSON.stringify(this.composer());
  }

  /** Posts the composer when it changed (sign-in state, running turns, attachments…). */
  updateComposer(): void {
    const composer = this.composer();
    const key = JSON.stringify(composer);
    if (key === this.#lastComposer) return;
    this.#lastComposer = key;
    this.#batcher.pushView({ type: 'composer', composer });
  }

  updateConnection(): void {
    const connection = this.connection();
    const key = JSON.stringify(connection);
    if (key === this.#lastConnection) return;
    this.#lastConnection = key;
    this.#batcher.pushView({ type: 'connection', connection });
  }

  updateTitle(): void {
    const title = this.#src.transcript.title;
    if (title === this.#lastTitle) return;
    this.#lastTitle = title;
    this.#batcher.pushView({ type: 'title', title });
    this.#src.events.titleChanged();
  }

  /**
   * Tells the webview how its send `sendId` ended. Sent as its own delta, never folded: `sending`
   * going on and off between two posts must not hide a refusal (the webview gives the text back).
   */
  settleSend(sendId: string, outcome: SendOutcome): void {
    this.updateComposer();
    this.#batcher.pushOnce({ type: 'sendResult', sendId, outcome });
  }

  /** Shows a banner above the composer (null removes it). */
  setNotice(notice: Notice | null): void {
    if (JSON.stringify(notice) === JSON.stringify(this.#noticeValue)) return;
    this.#noticeValue = notice;
    this.#batcher.pushView({ type: 'notice', notice });
  }

  /** Shows an error as a notice, with what to do. */
  showError(err: unknown, doing: string): void {
    const p = presentError(err, doing);
    this.setNotice({ level: p.transient ? 'warning' : 'error', message: p.message, actions: p.actions });
  }
}
