import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../../src/core/client/types';
import {
  addressKey,
  flattenTranscript,
  TranscriptFields,
  type SearchField,
} from '../../../../src/core/search/fields';
import { applyEvent, beginTurn } from '../../../../src/core/transcript/reducer';
import { eventFactory, type EventMaker } from '../../../support/events';
import { AGENT, liveTranscript } from '../transcript/helpers';

/** A turn using every block kind and turn-level part. */
function everyKind(e: EventMaker): AgentEvent[] {
  return [
    e('thought', { thought: 'Consider the ' }),
    e('thought', { thought: 'migration plan' }),
    e('markdown.chunk', { delta: 'I will add ' }),
    e('markdown.chunk', { delta: 'a **normalizer**.' }),
    e('text', { text: 'plain words' }),
    e('tool.start', { tool_name: 'write_file' }, 'tool:write_file:1'),
    e(
      'tool.parameters',
      { parameters: { path: 'src/norm.ts', content: 'export const x = "q";\n' } },
      'tool:write_file:1',
    ),
    e('tool.result', { status: 'success', output: { bytes: 22 } }, 'tool:write_file:1'),
    e('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1'),
    e('tool.parameters', { parameters: { command: 'npm test' } }, 'tool:run_command:1'),
    e('tool.log', { stream: 'stdout', data: '2 passing\n' }, 'tool:run_command:1'),
    e('tool.log', { stream: 'stderr', data: 'warn: slow\n' }, 'tool:run_command:1'),
    e('tool.log', { stream: 'stderr', data: 'ENOENT gone\n' }, 'tool:run_command:1'),
    e('tool.result', { status: 'error', output: 'exit 1' }, 'tool:run_command:1'),
    e('message.received', { text: 'also the docs', files: [{ key: 'k1', name: 'notes.md', size: 3 }] }),
    e('plan.update', { todos: [{ id: 't1', content: 'Write tests', status: 'active' }] }),
    e('sandbox.snapshot', { snapshot: { 'src/norm.ts': { key: 'k2', name: 'norm.ts' } } }),
    e('galaxy.brain', { idea: 'unknowable' }),
    e('task.error', { message: 'Sandbox failed', code: 'sandbox_failed' }),
  ];
}

const byKind = (fields: SearchField[]) =>
  fields.map((f) => [f.address.kind, f.address.blockId ?? '', f.text]);

describe('core/search/fields', () => {
  it('flattens every block kind and turn part, in reading order, with addresses', () => {
    const t = liveTranscript();
    const e = eventFactory();
    for (const ev of everyKind(e)) applyEvent(t, AGENT, ev);
    const rows = byKind(flattenTranscript(t));
    const generic = rows.find((r) => r[0] === 'event');
    assert.ok(generic && generic[2].startsWith('galaxy.brain ') && generic[2].includes('unknowable'));
    assert.deepEqual(
      rows.filter((r) => r[0] !== 'event'),
      [
        ['user', '', 'Add a whitespace normalizer with tests'],
        ['thought', 'thought:main', 'Consider the migration plan'],
        ['answer', 'answer:main', 'I will add a **normalizer**.'],
        ['answer', 'text:main', 'plain words'],
        ['tool-name', 'tool:write_file:1', 'write_file'],
        ['tool-params', 'tool:write_file:1', 'path: src/norm.ts\ncontent: export const x = "q";\n'],
        ['tool-output', 'tool:write_file:1', '{"bytes":22}'],
        ['tool-name', 'tool:run_command:1', 'run_command'],
        ['tool-params', 'tool:run_command:1', 'command: npm test'],
        ['tool-log', 'tool:run_command:1', '2 passing\nwarn: slow\nENOENT gone\n'],
        ['error', 'tool:run_command:1', 'exit 1'],
        ['message', rows.find((r) => r[0] === 'message')![1], 'also the docs'],
        ['file', rows.find((r) => r[0] === 'message')![1], 'notes.md'],
        ['plan', '', 'Write tests'],
        ['file', '', 'src/norm.ts'],
        ['error', '', 'Sandbox failed sandbox_failed'],
      ],
    );
    const keys = flattenTranscript(t).map((f) => addressKey(f.address));
    assert.equal(new Set(keys).size, keys.length, 'every address is unique');
    assert.ok(flattenTranscript(t).every((f) => f.address.turnId === AGENT));
  });

  it('includes the request files and an abort reason', () => {
    const t = liveTranscript();
    beginTurn(t, {
      agentMessageId: 'agent-2',
      text: 'second',
      files: [{ key: 'a', name: 'spec.pdf', size: 1 }],
    });
    applyEvent(t, 'agent-2', eventFactory()('task.aborted', { reason: 'stopped by you' }));
    const second = flattenTranscript(t).filter((f) => f.address.turnId === 'agent-2');
    assert.deepEqual(byKind(second), [
      ['user', '', 'second'],
      ['file', '', 'spec.pdf'],
      ['error', '', 'stopped by you'],
    ]);
  });

  it('kept current from change sets, equals a full re-flatten after every event', () => {
    const t = liveTranscript();
    const live = new TranscriptFields(t);
    const e = eventFactory();
    const events = [...everyKind(e)];
    for (let i = 0; i < 50; i++) {
      events.splice(5, 0, e('markdown.chunk', { delta: `more ${i} ` }));
      events.push(
        e('tool.log', { stream: i % 3 ? 'stdout' : 'stderr', data: `line ${i}\n` }, 'tool:run_command:1'),
      );
    }
    for (const ev of events) {
      live.apply(applyEvent(t, AGENT, ev));
      assert.deepEqual(live.toArray(), flattenTranscript(t));
    }
    const cs = beginTurn(t, { agentMessageId: 'agent-2', text: 'next request' });
    live.apply(cs);
    const e2 = eventFactory();
    for (const ev of [e2('markdown.chunk', { delta: 'two' }), e2('markdown.chunk', { delta: ' more' })]) {
      live.apply(applyEvent(t, 'agent-2', ev));
    }
    assert.deepEqual(live.toArray(), flattenTranscript(t));
  });

  it('a capped tool log that drops old text is re-taken whole, still equal', () => {
    const t = liveTranscript();
    const live = new TranscriptFields(t);
    const e = eventFactory();
    live.apply(applyEvent(t, AGENT, e('tool.start', { tool_name: 'run_command' }, 'tool:run_command:1')));
    for (let i = 0; i < 40; i++) {
      const cs = applyEvent(
        t,
        AGENT,
        e('tool.log', { stream: 'stdout', data: `chunk ${i} ` }, 'tool:run_command:1'),
        {
          maxLogChars: 50,
        },
      );
      live.apply(cs);
      assert.deepEqual(live.toArray(), flattenTranscript(t));
    }
    const log = live.toArray().find((f) => f.address.kind === 'tool-log');
    assert.ok(log && log.text.length <= 50 && log.text.endsWith('chunk 39 '));
  });

  it('appends grow the field in place (no re-flatten of the block)', () => {
    const t = liveTranscript();
    const live = new TranscriptFields(t);
    const e = eventFactory();
    live.apply(applyEvent(t, AGENT, e('markdown.chunk', { delta: 'a' })));
    const before = live.toArray().find((f) => f.address.kind === 'answer');
    live.apply(applyEvent(t, AGENT, e('markdown.chunk', { delta: 'b' })));
    const after = live.toArray().find((f) => f.address.kind === 'answer');
    assert.equal(after, before, 'the same field object');
    assert.equal(after?.text, 'ab');
  });

  it('duplicates and non-events change nothing; reset re-reads a replaced transcript', () => {
    const t = liveTranscript();
    const live = new TranscriptFields(t);
    const e = eventFactory();
    const ev = e('markdown.chunk', { delta: 'once' });
    live.apply(applyEvent(t, AGENT, ev));
    const v = live.version;
    live.apply(applyEvent(t, AGENT, ev));
    assert.equal(live.version, v);
    const other = liveTranscript('agent-x');
    live.reset(other);
    assert.deepEqual(live.toArray(), flattenTranscript(other));
  });
});
