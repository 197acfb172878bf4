import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import type { AgentEvent } from '../../src/core/client/types';
import { applyEvent, beginTurn, createTranscript } from '../../src/core/transcript/reducer';
import { startEmulator, type Emulator } from '../emulator';
import { openWorkbench, webviewFrame, type Workbench } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { openSessionFromTree, panelShot, scanTranscript, sendTask, turnEnds } from './panel-view';
import { UI_WAIT } from './sessions-view';

const SESSION = 'Write release notes for v2.3';
const TASK = 'big log: port the config loader to TOML';

/** The newest agent message of a session as the service stores it. */
async function storedTurn(emu: Emulator): Promise<{ sessionId: string; agentMessageId: string }> {
  const headers = { authorization: `Bearer ${emu.keys.primary}` };
  const list = (await (
    await fetch(`${emu.url}/sessions?search=${encodeURIComponent(SESSION)}`, { headers })
  ).json()) as { sessions: { sessionId: string }[] };
  const sessionId = list.sessions[0].sessionId;
  const detail = (await (await fetch(`${emu.url}/sessions/${sessionId}`, { headers })).json()) as {
    messages: { id: string; type: string }[];
  };
  const agent = detail.messages.filter((m) => m.type === 'agent').at(-1);
  assert.ok(agent, 'no agent message stored');
  return { sessionId, agentMessageId: agent.id };
}

describe('A turn streamed with state.snapshot frames and socket cuts (emulator, packaged .vsix)', function () {
  this.timeout(90_000);
  let emu: Emulator;
  let wb: Workbench;
  let page: Page;
  let frame: FrameLocator;

  before(async () => {
    // the service sends a snapshot after each ack and resumes after it, and the socket is cut
    // every few frames and sometimes right after the snapshot
    emu = await startEmulator({ eventDelayMs: 10, stateSnapshot: true, snapshotReplay: 'after' });
    emu.faults = { dropAfterFrames: 5, dropAfterSnapshot: 0.3, seed: 21 };
    wb = await openWorkbench({
      settings: { 'den.baseUrl': emu.url },
      env: { DEN_API_KEY: emu.keys.primary },
    });
    page = wb.page;
    frame = webviewFrame(page);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot('snapshot-failure').catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await emu?.close();
  });

  it('shows the turn exactly as the service stored it, tool logs, files and all, without a reopen', async () => {
    await openSessionFromTree(page, frame, SESSION);
    // the host's posts to the webview from now on, by type: a whole-view repaint is an `init`
    await frame.locator('body').evaluate(() => {
      const w = window as Window & { __denPosts?: Record<string, number> };
      w.__denPosts = {};
      window.addEventListener('message', (ev: MessageEvent<unknown>) => {
        const m = ev.data as { type?: unknown } | null;
        if (m && typeof m.type === 'string') w.__denPosts![m.type] = (w.__denPosts![m.type] ?? 0) + 1;
      });
    });
    const posts = (): Promise<Record<string, number>> =>
      frame
        .locator('body')
        .evaluate(() => (window as Window & { __denPosts?: Record<string, number> }).__denPosts ?? {});
    await sendTask(frame, TASK, 'code');
    const turnId = await waitFor(
      'the new turn',
      () =>
        frame.locator('.rows').evaluate((rows) => {
          const head = [...rows.querySelectorAll<HTMLElement>(':scope > .turn-header')].at(-1);
          return head?.textContent?.includes('big log') ? (head.dataset.turnId ?? '') : '';
        }),
      { ...UI_WAIT, until: (id) => id !== '' },
    );
    assert.equal(await turnEnds(frame, 'big log', /^completed$/), 'Completed');

    const { sessionId, agentMessageId } = await storedTurn(emu);
    assert.equal(agentMessageId, turnId);
    const t = createTranscript(sessionId);
    beginTurn(t, { agentMessageId, text: TASK });
    for (const ev of emu.storedEvents(sessionId, agentMessageId))
      applyEvent(t, agentMessageId, ev as AgentEvent);
    const stored = t.turns[0];
    // what the person sees, once the stored history is in: every stored block, in order
    const expectedIds = stored.blocks
      .filter((b) => !(b.type === 'message' && b.text.trim() === TASK))
      .map((b) => b.id);
    const shown = await waitFor(
      'the panel to show the stored blocks',
      async () => {
        const rows = (await scanTranscript(frame)).filter((r) => r.turnId === turnId && r.blockId);
        return rows.filter((r, i) => i === 0 || rows[i - 1].blockId !== r.blockId);
      },
      {
        ...UI_WAIT,
        until: (rows) => JSON.stringify(rows.map((r) => r.blockId)) === JSON.stringify(expectedIds),
      },
    );
    const tools = shown.filter((r) => r.kind === 'tool');
    assert.equal(tools.length, stored.blocks.filter((b) => b.type === 'tool').length);
    assert.ok(tools.every((r) => r.text.length > 0));
    const big = tools.find((r) => r.blockId === 'tool:run_command:1');
    assert.ok(big && /ok 016383/.test(big.text), 'the end of the 1 MiB log is not shown');
    assert.ok(
      shown.some((r) => r.kind === 'generic'),
      'blocks of unknown kinds are missing',
    );
    const files = frame.locator('.rows > .block-files').last().locator('button.file-change');
    assert.equal(await files.count(), stored.files.length);
    const seen = await posts();
    assert.ok((seen.batch ?? 0) > 0, `no deltas seen: ${JSON.stringify(seen)}`);
    assert.equal(seen.init ?? 0, 0, 'the view was repainted');
    await panelShot(wb, frame, 'panel-snapshot-cuts');
  });
});
