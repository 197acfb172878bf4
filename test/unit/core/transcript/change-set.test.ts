import assert from 'node:assert/strict';
import {
  emptyChangeSet,
  noteAppended,
  noteCreated,
  noteUpdated,
} from '../../../../src/core/transcript/change-set';

describe('change sets', () => {
  it('notes an append without an object to say it, as noteUpdated with one does', () => {
    const a = emptyChangeSet('m');
    const b = emptyChangeSet('m');
    noteAppended(a, 'answer:main', 'Hello');
    noteUpdated(b, 'answer:main', { text: 'Hello' });
    noteAppended(a, 'tool:run:1', 'out', 'stderr');
    noteUpdated(b, 'tool:run:1', { text: 'out', stream: 'stderr' });
    assert.deepEqual(a, b);
    assert.deepEqual(a.blocksUpdated, ['answer:main', 'tool:run:1']);
    assert.deepEqual(a.appends, [
      { blockId: 'answer:main', text: 'Hello' },
      { blockId: 'tool:run:1', text: 'out', stream: 'stderr' },
    ]);
    assert.equal('stream' in a.appends[0], false, 'no stream key for a text block');
  });

  it('makes a second change to the same block in one event a plain update', () => {
    const cs = emptyChangeSet('m');
    noteAppended(cs, 'answer:main', 'a');
    noteAppended(cs, 'answer:main', 'b');
    assert.deepEqual(cs.blocksUpdated, ['answer:main']);
    assert.deepEqual(cs.appends, []);
    const other = emptyChangeSet('m');
    noteUpdated(other, 'thought:1');
    noteAppended(other, 'thought:1', 'x');
    assert.deepEqual([other.blocksUpdated, other.appends], [['thought:1'], []]);
  });

  it('notes nothing more for a block created in the same event', () => {
    const cs = emptyChangeSet('m');
    noteCreated(cs, 'answer:main');
    noteAppended(cs, 'answer:main', 'Hello');
    noteUpdated(cs, 'answer:main');
    assert.deepEqual([cs.blocksCreated, cs.blocksUpdated, cs.appends], [['answer:main'], [], []]);
  });

  it('gives every change set lists of its own once written', () => {
    const a = emptyChangeSet('m');
    const b = emptyChangeSet('m');
    noteAppended(a, 'answer:main', 'Hello');
    assert.deepEqual([b.blocksUpdated, b.appends], [[], []]);
    noteAppended(b, 'thought:1', 'Hmm');
    assert.deepEqual(a.blocksUpdated, ['answer:main']);
    assert.deepEqual(b.blocksUpdated, ['thought:1']);
  });
});
