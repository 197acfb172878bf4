import assert from 'node:assert/strict';
import { checkResult } from '../../../../src/core/webtasks/result-check';
import {
  EMPTY_WEB_TASK_FORM,
  type WebTaskComparisonView,
} from '../../../../src/protocol/webtask-panel/webtask-messages';
import {
  bounded,
  comparisonHeadline,
  issueLookup,
  phaseAnnouncement,
  readDraft,
  resultSummary,
  timeText,
} from '../../../../src/webview/webtask-panel/texts';
import { webTaskStatus } from './webtask-factories';

const SCHEMA = { name: 'the name', price: 'the price' };

function comparison(patch: Partial<WebTaskComparisonView> = {}): WebTaskComparisonView {
  return {
    runId: 'r2',
    previous: { runId: 'r1', startedAt: Date.UTC(2026, 10, 24, 9, 0), rowCount: 3 },
    keyField: 'id',
    keySource: 'inferred',
    added: [{ id: 4 }],
    removed: [],
    changed: [{ key: '2', before: { id: 2, p: 1 }, after: { id: 2, p: 2 }, fields: ['p'] }],
    unchanged: 5,
    ...patch,
  };
}

describe('web task page texts', () => {
  it('sums the issues by kind, leaving out kinds with none, and counts rows with issues', () => {
    const data = [
      { name: 'a', price: null },
      { name: '' },
      { name: { x: 1 }, price: 3 },
      { name: 'b', price: 1 },
    ];
    const s = resultSummary(data.length, checkResult(data, SCHEMA));
    assert.equal(s.rows, '4 rows');
    assert.deepEqual(s.issues, ['1 missing', '1 null', '1 empty', '1 wrong shape']);
    assert.equal(s.rowsWithIssues, '3 rows with issues');
    assert.equal(s.warning, undefined);
  });

  it('warns when no rows came back, with or without a schema', () => {
    assert.equal(resultSummary(0, checkResult([], SCHEMA)).warning, 'No rows came back.');
    assert.equal(resultSummary(0, undefined).warning, 'No rows came back.');
    assert.equal(resultSummary(1, undefined).warning, undefined);
  });

  it('warns when every field came back empty, and names fields the schema lacks', () => {
    const s = resultSummary(2, checkResult([{ name: '', other: 1 }, { price: null }], SCHEMA));
    assert.match(s.warning ?? '', /^Every field came back empty/);
    assert.equal(s.extra, 'Fields not in the schema: other');
    assert.equal(resultSummary(1, checkResult([{ name: 'x' }], SCHEMA)).rows, '1 row');
  });

  it('looks up the issue of a row and field, and none where the check found none', () => {
    const look = issueLookup(checkResult([{ name: 'a' }, { name: null, price: 2 }], SCHEMA));
    assert.equal(look(0, 'price'), 'missing');
    assert.equal(look(1, 'name'), 'null');
    assert.equal(look(0, 'name'), undefined);
    assert.equal(issueLookup(undefined)(0, 'name'), undefined);
  });

  it('heads a comparison with its counts and how records were matched', () => {
    assert.match(
      comparisonHeadline(comparison()),
      /^vs run of .+: 1 added, 0 removed, 1 changed, 5 unchanged \(matched by key `id`, inferred\)$/,
    );
    assert.match(comparisonHeadline(comparison({ keySource: 'given' })), /\(matched by key `id`\)$/);
    assert.match(
      comparisonHeadline(comparison({ keyField: undefined, keySource: 'record' })),
      /\(matched as whole records\)$/,
    );
    assert.equal(
      comparisonHeadline(comparison({ previous: null, message: 'This is the first run of this query.' })),
      'This is the first run of this query.',
    );
  });

  it('says how long a run has taken while live and once finished', () => {
    const s = webTaskStatus({ startedAt: 1_000_000 });
    assert.match(timeText(s, 1_045_000), /^Started .+ · 45 s$/);
    assert.match(timeText({ ...s, phase: 'done', finishedAt: 1_180_000 }, 9e9), /^Finished .+ · took 3 min$/);
  });

  it('announces a state that needs the person with what to do, by its one name', () => {
    assert.equal(phaseAnnouncement(webTaskStatus()), 'Web task: Running.');
    assert.match(
      phaseAnnouncement(webTaskStatus({ phase: 'needs-you' })),
      /Waiting for you\. The task waits for you/,
    );
    assert.match(
      phaseAnnouncement(webTaskStatus({ phase: 'needs-person', finishedAt: 1_000 })),
      /Needs a person\. The task is over; the app needs a person/,
    );
    assert.equal(phaseAnnouncement(webTaskStatus({ phase: 'interrupted' })), 'Web task: Interrupted.');
  });

  it('says a run answered within a second took under 1 s, not 0 s', () => {
    const s = webTaskStatus({ phase: 'needs-person', startedAt: 1_000_000, finishedAt: 1_000_300 });
    assert.match(timeText(s, 9e9), /^Finished .+ · took under 1 s$/);
    assert.match(timeText({ ...s, finishedAt: 1_002_600 }, 9e9), /^Finished .+ · took 3 s$/);
  });

  it('bounds a list and says how many more there are', () => {
    assert.deepEqual(bounded([1, 2, 3], 2), { shown: [1, 2], more: 1 });
    assert.deepEqual(bounded([1], 2), { shown: [1], more: 0 });
  });

  it('reads a saved draft only when it is a whole form', () => {
    const form = { ...EMPTY_WEB_TASK_FORM, appUrl: 'https://a.example' };
    assert.deepEqual(readDraft({ form }), form);
    assert.equal(readDraft({ form: { appUrl: 'x' } }), undefined);
    assert.equal(readDraft(null), undefined);
    assert.equal(readDraft('form'), undefined);
  });
});
