import assert from 'node:assert/strict';
import { flattenTranscript } from '../../../../src/core/search/fields';
import { FindFields } from '../../../../src/webview/session-panel/find-fields';
import { Store } from '../../../../src/webview/session-panel/state';
import { loadFixture, scenario } from './helpers';

const FIXTURES = [
  'coding-turn.jsonl',
  'plan-turn.jsonl',
  'error-turn.jsonl',
  'aborted-turn.jsonl',
  'garbage-turn.jsonl',
];

describe('webview: FindFields', () => {
  for (const name of FIXTURES) {
    it(`equals the core's flattened transcript (output files aside) at every batch of ${name}`, () => {
      const s = scenario(loadFixture(name), 2);
      const store = new Store({ post: () => undefined });
      const fields = new FindFields(store);
      store.receive(s.init);
      fields.update(store.takeChanges());
      let version = fields.version;
      for (const b of s.batches) {
        store.receive(b);
        fields.update(store.takeChanges());
        assert.ok(fields.version > version, 'every change is a new version');
        version = fields.version;
        // drawn after each batch, as a find during the stream would (the cache then taken)
        const drawn = [...fields.fields()];
        assert.ok(
          drawn.every((f) => f.text.length > 0),
          'no empty field',
        );
      }
      // The panel is not sent a turn's output files: its Find cannot see them.
      const shown = structuredClone(s.transcript);
      for (const t of shown.turns) delete t.outputFiles;
      assert.deepEqual([...fields.fields()], flattenTranscript(shown));
    });
  }
});
