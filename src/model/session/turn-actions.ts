/**
 * Starting and stopping a session's turns from its host: `POST /sessions/new` with what the panel
 * knows, the new turn into the transcript and followed live; `DELETE /message/{id}/abort`, else the
 * socket's stop frame. Failures become the panel's notice. No `vscode` import.
 */
import type { ApiClient } from '../../core/client/client';
import { DenError } from '../../core/client/errors';
import type { FileInfo } from '../../core/client/types';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { latestEntryId } from '../../core/stream/entry-id';
import type { SessionStream } from '../../core/stream/session-stream';
import type { Turn } from '../../core/transcript/model';
import { beginTurn, findTurn } from '../../core/transcript/reducer';
import type { ComposerChoice } from './composer-choice';
import type { HostSettings, HostView } from './host-view';
import type { RateLimitWait } from './rate-limit-wait';
import type { SessionTranscript } from './session-transcript';
import type { TurnRequest } from './turn-request';

export type { TurnRequest } from './turn-request';
import { openTurns } from './turn-view';

/** The service as turns are started and stopped on it (the host's own deps are one). */
export interface TurnService {
  /** Throws a `config` DenError when Den cannot talk to the service. */
  client(): ApiClient;
  settings(): HostSettings;
  reportSuccess?(): void;
  reportFailure?(err: unknown): void;
}

/** What follows the turns once started (the turns' side of the host). */
export interface TurnTracker {
  /** Follows a turn; one just started from `sessionCursor`, the session's position before it. */
  follow(turn: Turn, sessionCursor?: string): void;
  stream(messageId: string): SessionStream | undefined;
  load(): Promise<void>;
  /** A turn was started from here. */
  started(turn: Turn): void;
}

/** What the actions act on. */
export interface TurnActionHost {
  readonly view: HostView;
  /** The mode and fast/think of turns that do not say. */
  readonly choice: ComposerChoice;
  /** The service's 429 wait and the message it held back. */
  readonly wait: RateLimitWait;
  readonly logger: Logger;
  readonly service: TurnService;
  /** The transcript store: what is shown, and where a new turn is recorded (closed: disposed). */
  readonly transcript: Pick<SessionTranscript, 'sessionId' | 'value' | 'closed' | 'record'>;
  readonly turns: TurnTracker;
}

/** Seconds to wait after a 429 that did not say. */
const DEFAULT_RETRY_AFTER_S = 30;

/**
 * Starts a turn (creating the session on the service when it is new) and follows it; the service
 * queues it behind a running one. Resolves to whether it started; failures are shown in the panel.
 */
export async function startTurn(h: TurnActionHost, req: TurnRequest): Promise<boolean> {
  const view = h.view;
  view.sending = true;
  view.updateComposer();
  // Where the session's stream stands before this turn: its events all come after it.
  const since = latestEntryId(h.transcript.value.turns.map((t) => t.lastStreamEntryId));
  try {
    const s = h.service.settings();
    const { mode, effort } = h.choice.for(req);
    const basePrompt = s.basePrompt?.trim() ? s.basePrompt : undefined;
    const result = await h.service.client().startTurn({
      sessionId: h.transcript.sessionId,
      task: req.task,
      mode,
      effort,
      ...(req.files?.length ? { files: req.files } : {}),
      ...(req.references?.length ? { references: req.references } : {}),
      ...(basePrompt ? { basePrompt } : {}),
      ...(req.continuation ? { continuation: req.continuation } : {}),
    });
    h.service.reportSuccess?.();
    if (h.transcript.closed) return true;
    h.wait.started(req);
    // The session exists now, whatever an earlier load said (a 404 before its first turn).
    view.failure = undefined;
    const files: FileInfo[] = (req.files ?? []).map((f) => ({ ...f }));
    h.transcript.record(
      beginTurn(h.transcript.value, {
        agentMessageId: result.agentMessageId,
        ...(result.userMessageId ? { userMessageId: result.userMessageId } : {}),
        text: req.task,
        mode,
        effort,
        files,
        status: result.status,
        ...(result.queuePosition !== undefined ? { queuePosition: result.queuePosition } : {}),
      }),
    );
    const turn = findTurn(h.transcript.value, result.agentMessageId);
    if (turn) {
      h.turns.follow(turn, since);
      h.turns.started(turn);
    }
    return true;
  } catch (err) {
    if (err instanceof DenError && err.code === 'rate_limited') {
      h.wait.hold(Date.now() + (err.retryAfter ?? DEFAULT_RETRY_AFTER_S) * 1000, req);
    } else {
      if (!(err instanceof DenError) || err.fault !== 'user') h.service.reportFailure?.(err);
      h.wait.failed(req);
      view.showError(err, l10n.t('start the turn'));
    }
    return false;
  } finally {
    view.sending = false;
    view.updateComposer();
  }
}

/**
 * Stops the running turn (else the first queued one). It ends with `task.aborted` from the service
 * and keeps what it produced.
 */
export async function stopTurn(h: TurnActionHost): Promise<void> {
  const open = openTurns(h.transcript.value);
  const turn = open.find((t) => t.status === 'running') ?? open[0];
  if (!turn) return;
  const id = turn.agentMessageId;
  try {
    const r = await h.service.client().abortMessage(id);
    if (!r.success) h.logger.info(`Stop: the service says ${r.message ?? 'the turn had ended'}`);
  } catch (err) {
    if (!h.turns.stream(id)?.sendStop()) {
      h.view.showError(err, l10n.t('stop the turn'));
      return;
    }
    h.logger.info(`Stop over HTTP failed (${err instanceof Error ? err.message : err}); sent a stop frame`);
  }
  // Not followed live: only the history can tell how it ended.
  if (!h.turns.stream(id)) await h.turns.load();
}
