/**
 * Helpers of the Session panel's integration tests: opening a panel, what its webview shows (the
 * `probe` digest), the transcript the service's stored events fold to, and a spy on `panels.open`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/core/client/types';
import { transcriptFromDetail } from '../../src/core/transcript/from-history';
import { isTerminalStatus, type Transcript, type Turn } from '../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../src/core/transcript/reducer';
import type { WebviewDigest } from '../../src/protocol/session-panel/messages';
import type { ConnectionView } from '../../src/protocol/session-panel/view';
import type { PanelTurnRequest } from '../../src/editor/session-panel/session-panels';
import type { SessionPanel } from '../../src/editor/session-panel/session-panel';
import type { TranscriptCache } from '../../src/model/session/transcript-cache';
import { blockText } from '../../src/webview/session-panel/state';
import type { Emulator } from '../emulator';
import { waitFor } from '../support/wait';
import { EXTENSION_ID, type DenApi } from './den-api';

/** What a webview showing exactly `t` reports in its digest. */
export function digestOf(t: Transcript): WebviewDigest['turns'] {
  return t.turns.map((turn) => ({
    id: turn.agentMessageId,
    status: turn.status,
    blocks: turn.blocks.map((b) => ({ id: b.id, type: b.type, text: blockText(b) })),
    todos: turn.plan?.todos.length ?? 0,
    files: turn.files.length,
  }));
}

/** Whether the webview bundle was built (the UI is written in parallel with the host). */
export function webviewBuilt(): boolean {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  return !!ext && fs.existsSync(path.join(ext.extensionPath, 'dist', 'webview.js'));
}

/**
 * Waits until the panel shows `expected()` (re-read at every try): through the webview's digest
 * when the webview is built, else the host's model.
 */
export async function waitShows(
  panel: SessionPanel,
  expected: () => Transcript,
  what: string,
  timeoutMs = 8_000,
): Promise<WebviewDigest | undefined> {
  let last: unknown;
  try {
    return await waitFor(
      what,
      async () => {
        const want = digestOf(expected());
        if (!webviewBuilt()) {
          last = digestOf(panel.transcript);
          return isDeepStrictEqual(last, want) ? ({} as WebviewDigest) : undefined;
        }
        const d = await panel.probe(3_000).catch(() => undefined);
        last = d?.turns;
        return d && isDeepStrictEqual(d.turns, want) ? d : undefined;
      },
      { timeoutMs, intervalMs: 60 },
    );
  } catch (err) {
    assert.deepEqual(last, digestOf(expected()), (err as Error).message);
    throw err;
  }
}

/** Opens a session's panel through Den and returns it. */
export async function openPanel(
  api: DenApi,
  sessionId: string,
  options?: Parameters<DenApi['panels']['open']>[1],
): Promise<SessionPanel> {
  await api.panels.open(sessionId, options);
  const p = api.panels.panel(sessionId);
  assert.ok(p, `no panel for ${sessionId}`);
  return p;
}

/** The transcript the service's history of a session folds to. */
export async function serverTranscript(api: DenApi, sessionId: string): Promise<Transcript> {
  return transcriptFromDetail(await api.connection.requireClient().getSession(sessionId));
}

/** `t` with its turn `agentMessageId` replaced by the fold of the emulator's stored events. */
export function withStoredTurn(emu: Emulator, t: Transcript, agentMessageId: string): Transcript {
  const turns = t.turns.map((turn) => {
    if (turn.agentMessageId !== agentMessageId) return turn;
    const x = createTranscript(t.sessionId);
    beginTurn(x, {
      agentMessageId,
      userMessageId: turn.userMessage.id,
      text: turn.userMessage.text,
      files: turn.userMessage.files,
      createdAt: turn.userMessage.createdAt,
    });
    for (const ev of emu.storedEvents(t.sessionId, agentMessageId))
      applyEvent(x, agentMessageId, ev as AgentEvent);
    return x.turns[0];
  });
  return { ...t, turns };
}

/** The newest turn of a panel. */
export function lastTurn(panel: SessionPanel): Turn {
  const turns = panel.transcript.turns;
  assert.ok(turns.length > 0, 'the panel has no turn');
  return turns[turns.length - 1];
}

/** Waits for a turn to reach a terminal status and stop being followed. */
export async function turnEnded(api: DenApi, turn: Turn, timeoutMs = 10_000): Promise<void> {
  await waitFor(
    `turn ${turn.userMessage.text} to end`,
    () =>
      isTerminalStatus(turn.status) &&
      !api.registry.runningTurns().some((r) => r.agentMessageId === turn.agentMessageId),
    timeoutMs,
  );
}

/** The id of a seeded session of the primary user, by title. */
export async function seededSession(api: DenApi, title: string): Promise<string> {
  const page = await api.connection.requireClient().listSessions({ search: title });
  const s = page.sessions.find((x) => x.title === title);
  assert.ok(s, `no seeded session "${title}"`);
  return s.sessionId;
}

/**
 * Waits until the transcript cache holds what a closed panel showed: a session's host writes it
 * when it goes (and on a debounce before). Through the session registry's private cache, whose
 * `flush` waits for the writes under way.
 */
export async function cachedOnClose(api: DenApi, sessionId: string): Promise<Transcript> {
  const cache = (api.registry as unknown as { cache?: TranscriptCache }).cache;
  assert.ok(
    cache && typeof cache.flush === 'function',
    'the session registry keeps no `cache`: update cachedOnClose',
  );
  return waitFor(`the transcript of ${sessionId} to be cached`, async () => {
    await cache.flush();
    return cache.read(sessionId);
  });
}

/**
 * Records every connection state the panel is told (its `init` and each `connection` delta), from
 * now until `stop()`: states that pass before a poll would see them.
 */
export function recordConnection(panel: SessionPanel): { told: ConnectionView[]; stop(): void } {
  const told: ConnectionView[] = [];
  const stop = panel.host.link.tap((m) => {
    if (m.type === 'init') told.push(m.connection);
    if (m.type === 'batch') for (const d of m.deltas) if (d.type === 'connection') told.push(d.connection);
  });
  return { told, stop };
}

/** One call of `panels.open`. */
export interface PanelOpenCall {
  sessionId: string;
  options: { turn?: PanelTurnRequest; title?: string };
}

/** Recorded `panels.open` calls; `restore` puts the real method back. */
export interface PanelSpy {
  readonly calls: PanelOpenCall[];
  restore(): void;
}

/**
 * Records every `api.panels.open` call and passes it on to the real method. While the panel is
 * not built yet (its `open` throws "not built yet"), the spy starts the requested turn itself
 * through Den's client, as the panel does, so tests asserting on the service's side pass before
 * and after the panel exists.
 */
export function spyOnPanels(api: DenApi): PanelSpy {
  const panels = api.panels as unknown as { open: DenApi['panels']['open'] };
  const own = Object.getOwnPropertyDescriptor(panels, 'open');
  const real = panels.open.bind(api.panels);
  const calls: PanelOpenCall[] = [];
  panels.open = async (sessionId, options = {}) => {
    calls.push({ sessionId, options });
    try {
      await real(sessionId, options);
    } catch (err) {
      if (!String(err).includes('not built yet')) throw err;
      if (options.turn) await api.connection.requireClient().startTurn({ sessionId, ...options.turn });
    }
  };
  return {
    calls,
    restore: () => {
      if (own) Object.defineProperty(panels, 'open', own);
      else delete (panels as { open?: unknown }).open;
    },
  };
}
