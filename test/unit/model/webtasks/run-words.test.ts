import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import type { WebTaskRun } from '../../../../src/model/webtasks/web-task-history';
import {
  errorOutcome,
  failureHint,
  interruptedOutcome,
  needsPersonHint,
  notifyNeedsPerson,
  phaseOf,
  previousRun,
  saveFileName,
  slugOf,
} from '../../../../src/model/webtasks/run-words';

const STREAMED = { stream: true };

describe('web task runs: phases, words and choices', () => {
  describe('phaseOf', () => {
    const table: [string, boolean, string][] = [
      ['STARTING', true, 'running'],
      ['PROCESSING', true, 'running'],
      ['RUNNING', true, 'running'],
      ['SOMETHING_NEW', true, 'running'],
      ['HUMAN_INTERACTION', true, 'needs-you'],
      // the final answer: the request is over, the app needs a person
      ['HUMAN_INTERACTION', false, 'needs-person'],
      ['DONE', false, 'done'],
      ['FAILURE', false, 'failed'],
      ['ERROR', false, 'error'],
      ['CANCELLED', false, 'cancelled'],
      ['INTERRUPTED', false, 'interrupted'],
      // A stored run left running (the window closed), or a stream whose last state is not final.
      ['RUNNING', false, 'interrupted'],
      ['PROCESSING', false, 'interrupted'],
      ['STARTING', false, 'interrupted'],
      // a final status Den does not know
      ['SOMETHING_NEW', false, 'error'],
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
      const o = errorOutcome(err({ code: 'unauthorized', status: 401, message: 'Unauthorized' }), STREAMED);
      assert.equal(o.taskStatus, 'ERROR');
      assert.match(o.message, /401/);
      assert.match(o.hint ?? '', /Set API Key/);
    });

    it('403: the passcode, with Set Web Task Passcode', () => {
      const o = errorOutcome(
        err({ code: 'forbidden', status: 403, message: 'x', serverMessage: 'invalid passcode' }),
        STREAMED,
      );
      assert.match(o.message, /403.*invalid passcode/);
      assert.match(o.hint ?? '', /Set Web Task Passcode/);
    });

    it('429: waits as long as the service says when it says', () => {
      assert.match(
        errorOutcome(err({ code: 'rate_limited', status: 429, message: 'x', retryAfter: 12.2 }), STREAMED)
          .hint ?? '',
        /Wait 13 s/,
      );
      assert.match(
        errorOutcome(err({ code: 'rate_limited', status: 429, message: 'x' }), STREAMED).hint ?? '',
        /Wait a little/,
      );
    });

    it('5xx and a non-JSON 500: the service, not the input', () => {
      const o = errorOutcome(
        err({ code: 'server', status: 500, message: 'Service error 500', serverMessage: '<html>' }),
        STREAMED,
      );
      assert.match(o.message, /service failed \(500\)/);
      assert.match(o.hint ?? '', /not your input/);
    });

    it('network: the connection and the URL', () => {
      const o = errorOutcome(err({ code: 'network', message: 'connect ECONNREFUSED' }), STREAMED);
      assert.match(o.message, /could not reach/);
      assert.match(o.hint ?? '', /Configure Service URL/);
    });

    // The advice fits the mode the run used: only a streamed run is told to turn streaming off.
    const cut = () => err({ code: 'protocol', message: 'x', details: { truncated: true } });
    const modes: [string, boolean, RegExp, RegExp][] = [
      ['a stream cut short', true, /^Interrupted: the status stream ended/, /turn Streaming off/],
      [
        'a JSON answer cut short (streaming off)',
        false,
        /^Interrupted: the service's answer was cut off/,
        /connection or proxy/,
      ],
    ];
    for (const [what, stream, message, hint] of modes) {
      it(`${what}: INTERRUPTED, with advice for that mode`, () => {
        const o = errorOutcome(cut(), { stream });
        assert.equal(o.taskStatus, 'INTERRUPTED');
        assert.match(o.message, message);
        assert.match(o.hint ?? '', hint);
        if (!stream) assert.doesNotMatch(`${o.message} ${o.hint}`, /stream/i);
      });
    }

    it('aborted: cancelled, with no hint', () => {
      const o = errorOutcome(err({ code: 'aborted', message: 'aborted' }), STREAMED);
      assert.deepEqual(o, { taskStatus: 'CANCELLED', message: 'Cancelled.' });
    });

    it('never quotes the secrets it is given', () => {
      const secret = 'pass-code-123456';
      const o = errorOutcome(
        err({ code: 'forbidden', status: 403, message: 'x', serverMessage: `bad passcode ${secret}` }),
        STREAMED,
        secret,
      );
      assert.ok(!o.message.includes(secret));
      assert.ok(!errorOutcome(new Error(`boom ${secret}`), STREAMED, secret).message.includes(secret));
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

  describe('interruptedOutcome and needsPersonHint', () => {
    it('names the cause; only a cut stream suggests streaming off', () => {
      assert.match(interruptedOutcome('stream').hint, /Streaming off/);
      assert.doesNotMatch(interruptedOutcome('answer').hint, /stream/i);
      assert.doesNotMatch(interruptedOutcome('window').hint, /stream/i);
      for (const c of ['stream', 'answer', 'window'] as const)
        assert.match(interruptedOutcome(c).message, /^Interrupted: /);
    });

    it('says the task is over and what to do, with or without a live link', () => {
      assert.match(needsPersonHint(true), /over.*Watch Live.*run the task again/);
      assert.match(needsPersonHint(false), /over.*open the app.*run the task again/);
      assert.doesNotMatch(needsPersonHint(false), /Watch Live/);
    });
  });

  describe('notifyNeedsPerson', () => {
    const table: [boolean, boolean, boolean, boolean][] = [
      // windowFocused, panelShowsRun, newerRunStarted → notify
      [true, true, false, false],
      [true, false, false, true],
      [false, true, false, true],
      [false, false, false, true],
      [false, false, true, false],
      [true, false, true, false],
    ];
    for (const [windowFocused, panelShowsRun, newerRunStarted, notify] of table) {
      it(`focused ${windowFocused}, panel shows it ${panelShowsRun}, later run ${newerRunStarted} → ${notify}`, () => {
        assert.equal(notifyNeedsPerson({ windowFocused, panelShowsRun, newerRunStarted }), notify);
      });
    }
  });
});
