import assert from 'node:assert/strict';
import { DenError } from '../../../src/core/api/errors';
import type { WebTaskRun } from '../../../src/session/web-task-history';
import {
  errorOutcome,
  failureHint,
  phaseOf,
  previousRun,
  saveFileName,
  slugOf,
} from '../../../src/webtasks/run-words';

describe('web task runs: phases, words and choices', () => {
  describe('phaseOf', () => {
    const table: [string, boolean, string][] = [
      ['STARTING', true, 'running'],
      ['PROCESSING', true, 'running'],
      ['RUNNING', true, 'running'],
      ['SOMETHING_NEW', true, 'running'],
      ['HUMAN_INTERACTION', true, 'needs-you'],
      ['HUMAN_INTERACTION', false, 'needs-you'],
      ['DONE', false, 'done'],
      ['FAILURE', false, 'failed'],
      ['ERROR', false, 'error'],
      ['CANCELLED', false, 'cancelled'],
      // A stored run left running (the window closed), or a stream whose last state is not final.
      ['RUNNING', false, 'error'],
      ['PROCESSING', false, 'error'],
    ];
    for (const [status, active, phase] of table) {
      it(`${status} (${active ? 'while the request goes' : 'at the end'}) → ${phase}`, () => {
        assert.equal(phaseOf(status, active), phase);
      });
    }
  });

  describe('errorOutcome', () => {
    const err = (init: ConstructorParameters<typeof DenError>[0]) => new DenError(init);

    it('401: the key, with Set API Key as what to do', () => {
      const o = errorOutcome(err({ code: 'unauthorized', status: 401, message: 'Unauthorized' }));
      assert.equal(o.taskStatus, 'ERROR');
      assert.match(o.message, /401/);
      assert.match(o.hint ?? '', /Set API Key/);
    });

    it('403: the passcode, with Set Web Task Passcode', () => {
      const o = errorOutcome(
        err({ code: 'forbidden', status: 403, message: 'x', serverMessage: 'invalid passcode' }),
      );
      assert.match(o.message, /403.*invalid passcode/);
      assert.match(o.hint ?? '', /Set Web Task Passcode/);
    });

    it('429: waits as long as the service says when it says', () => {
      assert.match(
        errorOutcome(err({ code: 'rate_limited', status: 429, message: 'x', retryAfter: 12.2 })).hint ?? '',
        /Wait 13 s/,
      );
      assert.match(
        errorOutcome(err({ code: 'rate_limited', status: 429, message: 'x' })).hint ?? '',
        /Wait a little/,
      );
    });

    it('5xx and a non-JSON 500: the service, not the input', () => {
      const o = errorOutcome(
        err({ code: 'server', status: 500, message: 'Service error 500', serverMessage: '<html>' }),
      );
      assert.match(o.message, /service failed \(500\)/);
      assert.match(o.hint ?? '', /not your input/);
    });

    it('network: the connection and the URL', () => {
      const o = errorOutcome(err({ code: 'network', message: 'connect ECONNREFUSED' }));
      assert.match(o.message, /could not reach/);
      assert.match(o.hint ?? '', /Configure Service URL/);
    });

    it('a stream cut short: recorded as interrupted', () => {
      const o = errorOutcome(err({ code: 'protocol', message: 'x', details: { truncated: true } }));
      assert.equal(o.taskStatus, 'ERROR');
      assert.match(o.message, /stream ended before the task finished.*interrupted/);
    });

    it('aborted: cancelled, with no hint', () => {
      const o = errorOutcome(err({ code: 'aborted', message: 'aborted' }));
      assert.deepEqual(o, { taskStatus: 'CANCELLED', message: 'Cancelled.' });
    });

    it('never quotes the secrets it is given', () => {
      const secret = 'pass-code-123456';
      const o = errorOutcome(
        err({ code: 'forbidden', status: 403, message: 'x', serverMessage: `bad passcode ${secret}` }),
        secret,
      );
      assert.ok(!o.message.includes(secret));
      assert.ok(!errorOutcome(new Error(`boom ${secret}`), secret).message.includes(secret));
    });
  });

  describe('failureHint', () => {
    it('says what to try for CAPTCHAs, blocks, pages that do not load, and anything else', () => {
      assert.match(failureHint('Blocked by a CAPTCHA'), /Solve CAPTCHAs/);
      assert.match(failureHint('Access denied from your region'), /proxy/);
      assert.match(failureHint('The page did not load (HTTP 502).'), /app URL/);
      assert.match(failureHint('Something odd'), /simplify the query/);
    });
  });

  describe('save file names', () => {
    it('a slug of the query with the format as extension', () => {
      assert.equal(
        saveFileName('List the top 10 Products & prices!', 'csv'),
        'list-the-top-10-products-prices.csv',
      );
      assert.equal(saveFileName('Crème brûlée recipes', 'jsonl'), 'creme-brulee-recipes.jsonl');
      assert.equal(saveFileName('???', 'json'), 'web-task.json');
      assert.equal(saveFileName('日本語', 'json'), 'web-task.json');
    });

    it('at most 50 characters, never ending in a dash', () => {
      const slug = slugOf('word '.repeat(40));
      assert.ok(slug.length <= 50);
      assert.ok(!slug.endsWith('-'));
    });
  });

  describe('previousRun', () => {
    const run = (id: string, startedAt: number, over: Partial<WebTaskRun> = {}): WebTaskRun => ({
      id,
      inputs: { query: 'q', appUrl: 'https://a.example' },
      status: 'DONE',
      message: '',
      startedAt,
      updatedAt: startedAt,
      rowCount: 1,
      dataBytes: 10,
      ...over,
    });

    it('is the newest earlier run of the same URL and query that has data', () => {
      const runs = [
        run('new', 5),
        run('other-query', 4, { inputs: { query: 'other', appUrl: 'https://a.example' } }),
        run('other-url', 3, { inputs: { query: 'q', appUrl: 'https://b.example' } }),
        run('no-data', 2, { dataBytes: 0, rowCount: 0 }),
        run('this', 1),
        run('older', 0),
      ];
      assert.equal(previousRun(runs, runs[0])?.id, 'this');
      assert.equal(previousRun(runs, runs[4])?.id, 'older');
      assert.equal(previousRun(runs, runs[5]), undefined);
    });

    it('follows the history order when two runs started in the same millisecond', () => {
      const runs = [run('b', 7), run('a', 7)];
      assert.equal(previousRun(runs, runs[0])?.id, 'a');
      assert.equal(previousRun(runs, runs[1]), undefined);
    });
  });
});
