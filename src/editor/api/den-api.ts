/**
 * Den's public extension API (`types.ts`), over the session registry, the panels, the connection
 * and the web task runner. Other extensions get it from `activate()`; Den's chat participant and language model
 * tools (`src/integrations/`) use nothing else.
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { fileSource, rangeSource, type AttachmentSource } from '../attachments/sources';
import { uploadWithProgress } from '../attachments/upload-sources';
import { toAnswer } from '../../core/transcript/answers';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import type { Transcript } from '../../core/transcript/model';
import type { SessionPanels, PanelTurnRequest } from '../session-panel/session-panels';
import type { SessionRegistry } from '../../model/session/session-registry';
import { firstLine } from '../../core/shared/format';
import { checkForm, hostSchemaReader } from '../../protocol/webtask-panel/webtask-form';
import { EMPTY_WEB_TASK_FORM } from '../../protocol/webtask-panel/webtask-messages';
import type { Connection } from '../platform/connection';
import { presentError } from '../../model/shared/error-text';
import type { WebTasks } from '../webtasks/web-tasks';
import { isEnded, sessionSnapshot, turnSnapshot } from './snapshot';
import type {
  DenExtensionApi,
  DenSessionChangeEvent,
  DenTurnOptions,
  DenTurnRef,
  DenTurnSnapshot,
  DenWebTaskOptions,
  DenWebTaskResult,
} from './types';
import { l10n } from '../../core/shared/l10n';

export interface DenApiDeps {
  connection: Connection;
  /** The session hosts: turns started and followed without a panel. */
  registry: SessionRegistry;
  panels: SessionPanels;
  webTasks: WebTasks;
  /** The title Den shows for a session (the list's, else undefined). */
  titleOf: (sessionId: string) => string | undefined;
  onDidChangeSession: vscode.Event<DenSessionChangeEvent>;
  /** Kept out of every message. */
  apiKey: () => string | undefined;
  /** Sessions with a `followTurn` listener (the chat shows their turns), by count. */
  followed: Map<string, number>;
}

/** An error the API wrote itself: its message already says what went wrong and what to do. */
class ApiError extends Error {}

/** An `Error` whose message says what went wrong and what to do (never the key). */
function apiError(err: unknown, doing: string, key: string | undefined): Error {
  if (err instanceof ApiError) return err;
  return new ApiError(l10n.t('Den: {0}', presentError(err, doing, key).message));
}

async function sourcesOf(files: DenTurnOptions['files']): Promise<AttachmentSource[]> {
  const out: AttachmentSource[] = [];
  for (const f of files ?? []) {
    if (f instanceof vscode.Location)
      out.push(rangeSource(await vscode.workspace.openTextDocument(f.uri), f.range));
    else out.push(fileSource(f));
  }
  return out;
}

export function createDenApi(deps: DenApiDeps): DenExtensionApi {
  const { connection, registry, panels } = deps;
  const client = async () => {
    await connection.ready;
    return connection.requireClient();
  };

  /** The session's turns: a host's when it loaded the history, else the stored ones with the host's live turns. */
  const transcript = async (sessionId: string): Promise<Transcript> => {
    const live = registry.transcriptOf(sessionId);
    if (live && registry.historyLoaded(sessionId)) return live;
    let stored: Transcript;
    try {
      stored = transcriptFromDetail(await (await client()).getSession(sessionId));
    } catch (err) {
      if (live) return live;
      throw err;
    }
    if (!live) return stored;
    const ids = new Set(live.turns.map((t) => t.agentMessageId));
    return { ...stored, turns: [...stored.turns.filter((t) => !ids.has(t.agentMessageId)), ...live.turns] };
  };

  const api: DenExtensionApi = {
    apiVersion: 1,

    async startTurn(options: DenTurnOptions): Promise<DenTurnRef> {
      const task = options.task?.trim();
      if (!task) throw new ApiError(l10n.t('Den: say what the agent should do (the task is empty).'));
      try {
        const c = await client();
        const isNew = !options.sessionId;
        const sessionId = options.sessionId ?? randomUUID();
        const s = connection.settings;
        const turn: PanelTurnRequest = {
          task,
          mode: options.mode ?? s.defaultMode,
          effort: options.effort ?? s.defaultEffort,
        };
        const sources = await sourcesOf(options.files);
        if (sources.length) {
          const uploaded = await uploadWithProgress(c, sessionId, sources);
          turn.files = uploaded.files;
          turn.references = uploaded.references;
          turn.bases = uploaded.bases;
        }
        const title = isNew ? firstLine(task) : undefined;
        if (options.openPanel) {
          await panels.open(sessionId, { turn, ...(title ? { title, isNew } : {}) });
          const started = registry.transcriptOf(sessionId)?.turns.at(-1);
          if (!started?.agentMessageId)
            throw new ApiError(l10n.t('Den: the turn did not start; the panel says why.'));
          return { sessionId, agentMessageId: started.agentMessageId };
        }
        const r = await registry.startTurn(sessionId, turn, { ...(title ? { title } : {}), isNew });
        if ('error' in r) throw new ApiError(l10n.t('Den: {0}', r.error));
        return { sessionId, agentMessageId: r.agentMessageId };
      } catch (err) {
        throw apiError(err, l10n.t('start the turn'), deps.apiKey());
      }
    },

    followTurn(ref, listener): vscode.Disposable {
      let last = '';
      let done = false;
      const { followed } = deps;
      followed.set(ref.sessionId, (followed.get(ref.sessionId) ?? 0) + 1);
      const stop = (): void => {
        if (done) return;
        done = true;
        sub.dispose();
        // Still looked at while the turn's end goes round (Den's notification decides a few
        // microtasks after the last event): let go on the next task.
        setTimeout(() => {
          const n = (followed.get(ref.sessionId) ?? 1) - 1;
          if (n > 0) followed.set(ref.sessionId, n);
          else followed.delete(ref.sessionId);
        }, 0);
      };
      const emit = (snap: DenTurnSnapshot): void => {
        const key = JSON.stringify(snap);
        if (done || key === last) return;
        last = key;
        listener(snap);
        if (isEnded(snap)) stop();
      };
      const fromHost = (): boolean => {
        const t = registry
          .transcriptOf(ref.sessionId)
          ?.turns.find((x) => x.agentMessageId === ref.agentMessageId);
        if (t) emit(turnSnapshot(ref.sessionId, t));
        return t !== undefined;
      };
      const sub = registry.onDidChangeTranscript((id) => {
        if (id === ref.sessionId) fromHost();
      });
      // Not held by a host (it ended before, or runs from elsewhere): read the history into one,
      // which follows the turn on while it runs.
      if (!fromHost()) {
        void registry.watch(ref.sessionId).then(
          (t) => {
            const turn = t.turns.find((x) => x.agentMessageId === ref.agentMessageId);
            if (turn) emit(turnSnapshot(ref.sessionId, turn));
          },
          () => undefined,
        );
      }
      return new vscode.Disposable(stop);
    },

    async getSession(sessionId) {
      try {
        const t = await transcript(sessionId);
        return sessionSnapshot(t, deps.titleOf(sessionId) ?? firstLine(t.turns[0]?.userMessage.text ?? ''));
      } catch (err) {
        throw apiError(err, l10n.t('read the session'), deps.apiKey());
      }
    },

    stopTurn: (sessionId) => registry.stop(sessionId),

    answerTurn(turn, answer) {
      const a = toAnswer(answer.kind, answer.text);
      if (!a) return Promise.reject(new ApiError(l10n.t('Den: say what to answer (the answer is empty).')));
      const outcome = registry.answer(turn.sessionId, a, turn.agentMessageId);
      if (outcome === 'unsent')
        return Promise.reject(
          new ApiError(
            l10n.t(
              'Den: the answer was not sent: the connection to the turn is down. Try again in a moment.',
            ),
          ),
        );
      return Promise.resolve(outcome === 'sent');
    },

    openSession: (sessionId) => panels.open(sessionId),

    async reviewChanges(sessionId, agentMessageId) {
      if (agentMessageId) await vscode.commands.executeCommand('den.reviewTurn', sessionId, agentMessageId);
      else await vscode.commands.executeCommand('den.reviewSession', sessionId);
    },

    runWebTask: (options, token) => runWebTask(deps.webTasks, options, token),

    onDidChangeSession: deps.onDidChangeSession,
  };
  return Object.freeze(api);
}

async function runWebTask(
  webTasks: WebTasks,
  options: DenWebTaskOptions,
  token?: vscode.CancellationToken,
): Promise<DenWebTaskResult> {
  const check = checkForm(
    {
      ...EMPTY_WEB_TASK_FORM,
      appUrl: options.appUrl ?? '',
      query: options.query ?? '',
      schemaText: JSON.stringify(options.schema ?? {}),
      maxCount: options.maxCount === undefined ? '' : String(options.maxCount),
      mode: options.mode ?? '',
    },
    hostSchemaReader(),
  );
  if (!check.request) {
    const problems = Object.entries(check.errors).map(([field, text]) => `${field}: ${text}`);
    throw new ApiError(l10n.t('Den: the web task is not valid. {0}', problems.join(' ')));
  }
  const runner = webTasks.runner;
  const runId = await runner.start(check.request);
  const cancel = token?.onCancellationRequested(() => runner.cancel(runId));
  try {
    await runner.settled(runId);
  } finally {
    cancel?.dispose();
  }
  const status = runner.liveStatus(runId);
  const results = runner.recentResults(runId);
  const run = (await runner.history().list()).find((r) => r.id === runId);
  return {
    status: status?.taskStatus ?? 'ERROR',
    records: results?.data ?? [],
    problems: { ...(run?.problems ?? {}) },
    ...(status?.message
      ? { message: status.hint ? `${status.message} ${status.hint}` : status.message }
      : {}),
    ...(status?.sessionId ? { sessionId: status.sessionId } : {}),
    ...(status?.livestreamUrl ? { livestreamUrl: status.livestreamUrl } : {}),
  };
}
