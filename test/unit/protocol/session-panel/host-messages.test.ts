import assert from 'node:assert/strict';
import { fileStatusText, fileStatusWords } from '../../../../src/protocol/session-panel/file-status-text';
import type { FileStatusView } from '../../../../src/protocol/session-panel/view';

type FileStatus = Omit<FileStatusView, 'path'>;
import { isDelta, isHostMessage } from '../../../../src/protocol/session-panel/host-messages';
import { liveTranscript } from '../../core/transcript/helpers';
import { initMessage } from '../../webview/session-panel/helpers';

describe('webview message checks', () => {
  it('accepts what the host sends', () => {
    assert.ok(isHostMessage(initMessage(liveTranscript(), 1)));
    assert.ok(isHostMessage({ type: 'batch', seq: 2, deltas: [{ type: 'title', title: 't' }] }));
    assert.ok(isHostMessage({ type: 'probe', seq: 3, id: 'p' }));
    assert.ok(isHostMessage({ type: 'focusComposer', seq: 4 }));
    assert.ok(isHostMessage({ type: 'fullLog', seq: 5, turnId: 't', blockId: 'b', text: '' }));
    assert.ok(
      isHostMessage({ type: 'fullLog', seq: 5, turnId: 't', blockId: 'b', text: '', droppedChars: 9 }),
    );
  });

  const bad: [string, unknown][] = [
    ['null', null],
    ['a string', 'init'],
    ['no seq', { type: 'batch', deltas: [] }],
    ['a fractional seq', { type: 'batch', seq: 1.5, deltas: [] }],
    ['an unknown type', { type: 'eval', seq: 1 }],
    ['deltas not an array', { type: 'batch', seq: 1, deltas: {} }],
    ['an unknown delta', { type: 'batch', seq: 1, deltas: [{ type: 'html', html: '<b>' }] }],
    [
      'an append without text',
      { type: 'batch', seq: 1, deltas: [{ type: 'append', turnId: 't', blockId: 'b' }] },
    ],
    [
      'a bad stream',
      {
        type: 'batch',
        seq: 1,
        deltas: [{ type: 'append', turnId: 't', blockId: 'b', text: '', stream: 'tty' }],
      },
    ],
    [
      'a tool block without a log',
      { type: 'batch', seq: 1, deltas: [{ type: 'block', turnId: 't', block: { type: 'tool', id: 'x' } }] },
    ],
    ['an init without turns', { ...initMessage(liveTranscript(), 1), turns: undefined }],
    ['a probe without id', { type: 'probe', seq: 1 }],
    [
      'a whole log with a bad drop count',
      { type: 'fullLog', seq: 1, turnId: 't', blockId: 'b', text: '', droppedChars: -1 },
    ],
  ];
  for (const [what, msg] of bad) {
    it(`rejects ${what}`, () => assert.equal(isHostMessage(msg), false));
  }

  it('checks every delta kind', () => {
    assert.ok(isDelta({ type: 'notice', notice: null }));
    assert.ok(isDelta({ type: 'notice', notice: { level: 'error', message: 'm', actions: [] } }));
    assert.ok(isDelta({ type: 'connection', connection: { state: 'live' } }));
    assert.ok(isDelta({ type: 'plan', turnId: 't', plan: { todos: [] } }));
    assert.ok(!isDelta({ type: 'plan', turnId: 't', plan: {} }));
    assert.ok(!isDelta({ type: 'composer', composer: { mode: 'code' } }));
    const status = { path: 'a.ts', state: 'conflicts', added: 1, removed: 0, conflicts: 2, reason: 'why' };
    assert.ok(
      isDelta({ type: 'fileStatus', files: [status, { path: 'b', state: 'new', added: 3, removed: 0 }] }),
    );
    assert.ok(!isDelta({ type: 'fileStatus', files: [{ ...status, state: 'gone' }] }));
    assert.ok(!isDelta({ type: 'fileStatus', files: [{ ...status, added: -1 }] }));
    const partly = { path: 'p.ts', state: 'partly', added: 1, removed: 0, hunks: { applied: 2, total: 5 } };
    assert.ok(isDelta({ type: 'fileStatus', files: [partly] }));
    assert.ok(!isDelta({ type: 'fileStatus', files: [{ ...partly, hunks: { applied: -1, total: 5 } }] }));
    assert.ok(isDelta({ type: 'panel', preview: true }));
    assert.ok(!isDelta({ type: 'panel', preview: 'yes' }));
    assert.ok(isHostMessage({ ...initMessage(liveTranscript(), 1), preview: true }));
    assert.ok(!isHostMessage({ ...initMessage(liveTranscript(), 1), preview: 1 }));
    // a long session's short first init
    assert.ok(isHostMessage({ ...initMessage(liveTranscript(), 1), partial: true }));
    assert.ok(!isHostMessage({ ...initMessage(liveTranscript(), 1), partial: 'yes' }));
  });
});

describe('file state wording', () => {
  const cases: [FileStatus, string, string][] = [
    [
      { state: 'modified', added: 3, removed: 1 },
      'modified · +3 \u22121',
      'modified, 3 lines added, 1 line removed',
    ],
    [{ state: 'new', added: 12, removed: 0 }, 'new · +12', 'new, 12 lines added'],
    [{ state: 'identical', added: 0, removed: 0 }, 'identical', 'identical'],
    [{ state: 'deleted', added: 0, removed: 40 }, 'deleted · \u221240', 'deleted, 40 lines removed'],
    [
      { state: 'conflicts', added: 5, removed: 2, conflicts: 2 },
      'conflicts · 2 hunks',
      'has conflicts, 2 conflicts, 5 lines added, 2 lines removed',
    ],
    [{ state: 'refused', added: 0, removed: 0, reason: 'no' }, 'refused', 'refused'],
    [
      { state: 'partly', added: 2, removed: 1, hunks: { applied: 2, total: 5 } },
      'partly applied · 2 of 5 hunks',
      'partly applied, 2 of 5 hunks, 2 lines added, 1 line removed',
    ],
  ];
  for (const [status, text, words] of cases) {
    it(`says ${text}`, () => {
      assert.equal(fileStatusText(status), text);
      assert.equal(fileStatusWords(status), words);
    });
  }
});
