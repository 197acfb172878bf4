import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, Message, Session, SessionDetail } from '../../../../src/core/client/types';
import { normalizeSessionDetail } from '../../../../src/core/client/normalize';
import { transcriptFromDetail } from '../../../../src/core/transcript/from-history';
import type { Block, Transcript } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { eventFactory } from '../../../support/events';
import { AGENT, SESSION, loadFixture } from './helpers';

const PROMPT = 'Add a whitespace normalizer with tests';

function session(): Session {
  return {
    id: SESSION,
    sessionId: SESSION,
    title: 'Normalizer',
    createdAt: 1,
    updatedAt: 2,
    deleted: false,
    isPinned: false,
    fileSnapshot: {},
  };
}

function userMessage(id = 'user-0001', text = PROMPT): Message {
  return {
    id,
    sessionId: SESSION,
    type: 'user',
    content: text,
    createdAt: 1000,
    inputMode: 'code',
    aborted: false,
    files: [],
    events: [],
  };
}

function agentMessage(extra: Partial<Message> = {}): Message {
  return {
    id: AGENT,
    sessionId: SESSION,
    type: 'agent',
    content: '',
    createdAt: 1001,
    aborted: false,
    files: [],
    events: [],
    ...extra,
  };
}

function detail(...messages: Message[]): SessionDetail {
  return { session: session(), messages };
}

/** What a client following the turn live builds: beginTurn, then every frame. */
function live(events: unknown[]): Transcript {
  const t = createTranscript(SESSION, 'Normalizer');
  beginTurn(t, {
    agentMessageId: AGENT,
    userMessageId: 'user-0001',
    text: PROMPT,
    mode: 'code',
    files: [],
    createdAt: 1000,
  });
  for (const ev of events) applyEvent(t, AGENT, ev as AgentEvent);
  return t;
}

describe('transcript from history', () => {
  for (const name of [
    'coding-turn.jsonl',
    'plan-turn.jsonl',
    'error-turn.jsonl',
    'aborted-turn.jsonl',
    'garbage-turn.jsonl',
  ]) {
    it(`equals the live fold of the same events (${name})`, () => {
      const events = loadFixture(name);
      const aborted = events.some((e) => e.kind === 'task.aborted');
      const fromHistory = transcriptFromDetail(detail(userMessage(), agentMessage({ events, aborted })));
      assert.deepEqual(fromHistory, live(events));
    });
  }

  it('leaves a turn without a terminal event running, to be followed live', () => {
    const events = loadFixture('coding-turn.jsonl').slice(0, 12);
    const t = transcriptFromDetail(detail(userMessage(), agentMessage({ events })));
    assert.equal(t.turns[0].status, 'running');
    assert.equal(t.turns[0].lastEventId, 12);
    assert.deepEqual(t, live(events));
  });

  it('marks an agent message flagged aborted as aborted even without its event', () => {
    const events = loadFixture('coding-turn.jsonl').slice(0, 5);
    const t = transcriptFromDetail(detail(userMessage(), agentMessage({ events, aborted: true })));
    assert.equal(t.turns[0].status, 'aborted');
  });

  it('pairs each user message with the agent message after it', () => {
    const e = eventFactory();
    const t = transcriptFromDetail(
      detail(
        userMessage('u1', 'first'),
        agentMessage({ id: 'a1', events: [e('task.completed', {})] }),
        agentMessage({ id: 'a2', events: [] }),
        userMessage('u3', 'third'),
        agentMessage({ id: 'a3', events: [] }),
        userMessage('u4', 'waiting'),
      ),
    );
    assert.deepEqual(
      t.turns.map((x) => [x.userMessage.id, x.userMessage.text, x.agentMessageId, x.status]),
      [
        ['u1', 'first', 'a1', 'completed'],
        ['', '', 'a2', 'running'],
        ['u3', 'third', 'a3', 'running'],
        ['u4', 'waiting', '', 'queued'],
      ],
    );
    assert.equal(t.title, 'Normalizer');
  });

  it('shows an answer stored only as content as a completed markdown block', () => {
    const t = transcriptFromDetail(detail(userMessage(), agentMessage({ content: 'Done: **ok**' })));
    assert.deepEqual(t.turns[0].blocks, [
      { type: 'markdown', id: 'answer:main', text: 'Done: **ok**', final: true },
    ]);
    assert.equal(t.turns[0].status, 'completed');
  });

  describe('legacy variant (blocks + status)', () => {
    const blocks = [
      { id: 'thought:1', type: 'thought', content: 'Looking around.' },
      {
        id: 'tool:run_command:1',
        type: 'tool',
        tool_name: 'run_command',
        parameters: { command: 'npm test' },
        logs: [
          { stream: 'stdout', data: 'ok\n' },
          { stream: 'stderr', data: 'warn\n' },
        ],
        status: 'success',
        output: 'exit code 0',
      },
      { id: 'plan:root', type: 'plan', todos: [{ id: 't1', content: 'Test', status: 'completed' }] },
      { id: 'answer:main', type: 'markdown', content: 'All good.', final: true },
      { id: 'chart:1', type: 'chart', series: [1, 2] },
    ];

    it('maps blocks and status onto the model', () => {
      const t = transcriptFromDetail(
        detail(userMessage(), agentMessage({ blocks, status: { phase: 'completed', etaSeconds: 0 } })),
      );
      const turn = t.turns[0];
      assert.equal(turn.status, 'completed');
      assert.deepEqual(turn.blocks, [
        { type: 'thought', id: 'thought:1', text: 'Looking around.', final: true },
        {
          type: 'tool',
          id: 'tool:run_command:1',
          name: 'run_command',
          parameters: { command: 'npm test' },
          log: {
            segments: [
              { stream: 'stdout', data: 'ok\n' },
              { stream: 'stderr', data: 'warn\n' },
            ],
            chars: 8,
            truncatedChars: 0,
          },
          status: 'success',
          output: 'exit code 0',
        },
        { type: 'markdown', id: 'answer:main', text: 'All good.', final: true },
        {
          type: 'generic',
          id: 'chart:1',
          kind: 'block.create',
          payload: { id: 'chart:1', type: 'chart', series: [1, 2] },
        },
      ] satisfies Block[]);
      assert.deepEqual(turn.plan, { todos: [{ id: 't1', content: 'Test', status: 'completed' }] });
    });

    it('reads a status error as an errored turn and a running phase as running', () => {
      const errored = transcriptFromDetail(
        detail(
          userMessage(),
          agentMessage({ blocks: [], status: { phase: 'error', error: 'Sandbox died' } }),
        ),
      );
      assert.deepEqual(
        [errored.turns[0].status, errored.turns[0].error],
        ['error', { message: 'Sandbox died' }],
      );
      const running = transcriptFromDetail(
        detail(userMessage(), agentMessage({ blocks, status: { phase: 'running', etaSeconds: 12 } })),
      );
      assert.deepEqual([running.turns[0].status, running.turns[0].etaSeconds], ['running', 12]);
      assert.equal((running.turns[0].blocks[0] as { final: boolean }).final, false);
    });

    it('equals the live fold of a state.snapshot frame with the same state', () => {
      const status = { phase: 'running', eta_seconds: 12 };
      const fromHistory = transcriptFromDetail(
        detail(userMessage(), agentMessage({ blocks, status: { phase: 'running', etaSeconds: 12 } })),
      );
      const snapshotFrame = {
        kind: 'state.snapshot',
        message_id: AGENT,
        timestamp: 5,
        payload: { status, blocks },
      };
      assert.deepEqual(fromHistory, live([snapshotFrame]));
    });
  });

  describe('against the emulator', () => {
    let current: Emulator;
    let legacy: Emulator;
    before(async () => {
      [current, legacy] = await Promise.all([
        startEmulator({ seed: false, eventDelayMs: 0 }),
        startEmulator({ seed: false, eventDelayMs: 0, variant: 'legacy' }),
      ]);
    });
    after(async () => {
      await Promise.all([current?.close(), legacy?.close()]);
    });

    async function runTurn(
      emu: Emulator,
      task: string,
      mode: string,
    ): Promise<{ t: Transcript; events: AgentEvent[]; sessionId: string; agentId: string }> {
      const headers = { authorization: `Bearer ${emu.keys.primary}`, 'content-type': 'application/json' };
      const sessionId = randomUUID();
      const res = await fetch(`${emu.url}/sessions/new`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ session_id: sessionId, task, mode }),
      });
      const body = (await res.json()) as Record<string, string>;
      const agentId = body.agent_message_id ?? body.assistant_message_id;
      await emu.turnEnded(sessionId, agentId);
      const raw = await (await fetch(`${emu.url}/sessions/${sessionId}`, { headers })).json();
      return {
        t: transcriptFromDetail(normalizeSessionDetail(raw)),
        events: emu.storedEvents(sessionId, agentId),
        sessionId,
        agentId,
      };
    }

    /** What both variants can show: text of answers, thoughts and texts, tools and the plan. */
    function content(t: Transcript) {
      const turn = t.turns[0];
      return {
        status: turn.status,
        prompt: turn.userMessage.text,
        plan: turn.plan,
        blocks: turn.blocks
          .filter((b) => b.type !== 'generic' && b.type !== 'message')
          // The older variant's blocks carry no times (a tool's start and end): those are left out.
          .map((b) => {
            if (b.type !== 'tool') return b;
            const { startedAt: _s, endedAt: _e, ...rest } = b;
            return { ...rest, log: { ...b.log } };
          }),
      };
    }

    for (const [task, mode] of [
      ['Add a whitespace normalizer with tests', 'code'],
      ['Plan the refactor of the config loader', 'plan'],
    ]) {
      it(`reads the same ${mode} turn alike from both variants, and like its stored events`, async () => {
        const [a, b] = await Promise.all([runTurn(current, task, mode), runTurn(legacy, task, mode)]);
        assert.equal(a.t.turns[0].status, 'completed');
        assert.deepEqual(content(b.t), content(a.t));
        const followed = createTranscript(a.sessionId, a.t.title);
        const u = a.t.turns[0].userMessage;
        beginTurn(followed, {
          agentMessageId: a.agentId,
          userMessageId: u.id,
          text: u.text,
          mode: u.mode,
          files: u.files,
          createdAt: u.createdAt,
        });
        for (const ev of a.events) applyEvent(followed, a.agentId, ev);
        assert.deepEqual(a.t, followed);
      });
    }
  });
});
