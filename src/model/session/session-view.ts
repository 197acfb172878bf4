/**
 * The view of a session's host: what its webview is sent and when. It puts together the batcher
 * (the transcript's changes as deltas, at most a post a frame, 30 a second in a burst, none while hidden), the link to
 * the webview attached (visibility, `ready`, probes, focus) and the panel's facts besides the
 * transcript (`HostView`: composer, connection, notice, title, file states). It hears the transcript
 * store as a `TranscriptListener`; the turns' side connects to it once made (`connect`), for the
 * connection shown and to hear when the webview is shown or hidden. No `vscode` import.
 */
import type { ChangeSet } from '../../core/transcript/model';
import type { Logger } from '../../core/shared/log';
import type { AttachmentView } from '../../protocol/session-panel/messages';
import type { Clock } from '../shared/clock';
import { followFileStatus, type FileStatusSource } from '../session-files/file-status';
import type { ReviewedSource } from '../review/review-marks';
import type { Choice } from './composer-choice';
import { DeltaBatcher } from './delta-batcher';
import { HostView, type ConnectionSource, type HostSettings } from './host-view';
import type { SessionTranscript, TranscriptListener } from './session-transcript';
import { ViewLink, type ShownListener } from './view-link';

/** The turns' side as the view sees it: where the connection comes from, and who hears it is shown. */
export interface TurnsInView extends ConnectionSource, ShownListener {}

export interface SessionViewDeps {
  /** The transcript store: the view shows it and hears its changes. */
  store: SessionTranscript;
  /** The extension's settings, read each time (the host's own deps are one). */
  settings: { settings(): HostSettings };
  choice: { readonly current: Choice };
  attachments: { views(): AttachmentView[] };
  /** Told when the title shown changed. */
  events: { titleChanged(): void };
  /** The session files' states against the workspace, shown in the panel's file lists. */
  fileStatus?: FileStatusSource;
  /** The session's reviewed marks, shown in the panel's file lists. */
  reviewed?: ReviewedSource;
  logger: Logger;
  clock: Clock;
  /** Batching (tests). */
  batch?: { intervalMs?: number; initThreshold?: number };
}

export class SessionView implements TranscriptListener, ShownListener {
  readonly batcher: DeltaBatcher;
  /** The webview currently attached: visibility, `ready`, probes, focus, and a tap on posts. */
  readonly link: ViewLink;
  /** What the panel shows besides the transcript: composer, connection, notice, title. */
  readonly panel: HostView;
  readonly #fileStatus?: ReturnType<typeof followFileStatus>;
  readonly #reviewed?: { dispose(): void };
  #turns?: ShownListener;

  constructor(deps: SessionViewDeps) {
    const { store } = deps;
    this.batcher = new DeltaBatcher({
      transcript: () => store.value,
      init: () => this.panel.initBody(),
      post: (m) => this.link.post(m),
      clock: deps.clock,
      ...deps.batch,
    });
    this.link = new ViewLink(this.batcher, deps.clock, this);
    this.panel = new HostView(
      {
        transcript: store,
        settings: deps.settings,
        choice: deps.choice,
        attachments: deps.attachments,
        events: deps.events,
      },
      this.batcher,
    );
    if (deps.fileStatus) {
      const panel = this.panel;
      this.#fileStatus = followFileStatus(
        deps.fileStatus,
        store.sessionId,
        (f) => panel.setFileStatus(f),
        deps.logger,
      );
    }
    if (deps.reviewed) {
      const source = deps.reviewed;
      const show = (): void => this.panel.setReviewed(source.view(store.sessionId));
      show();
      this.#reviewed = source.onDidChange((id) => {
        if (id === store.sessionId) show();
      });
    }
    store.listen(this);
  }

  /** The turns' side, made after the view: the connection it shows, and who hears it is shown. */
  connect(turns: TurnsInView): void {
    this.panel.connectTo(turns);
    this.#turns = turns;
  }

  /** Reads the file states again (the panel opens). */
  refreshFiles(): void {
    void this.#fileStatus?.refresh();
  }

  // ---- what the store and the link tell --------------------------------------------------------

  changed(cs: ChangeSet): void {
    this.batcher.push(cs);
  }

  repaint(): void {
    this.batcher.invalidate();
  }

  /** A change was recorded: the composer (running, queued) and the title follow. */
  recorded(cs: ChangeSet): void {
    if (cs.turnCreated || cs.statusChanged || cs.turnInfoChanged) this.panel.updateComposer();
    if (cs.turnCreated) this.panel.updateTitle();
  }

  replaced(): void {
    this.panel.updateTitle();
    this.panel.updateComposer();
  }

  shownChanged(): void {
    this.#turns?.shownChanged();
  }

  /** Stops following the file states, lets the webview go and stops posting. */
  dispose(): void {
    this.#fileStatus?.dispose();
    this.#reviewed?.dispose();
    this.link.detach();
    this.batcher.dispose();
  }
}
