import assert from 'node:assert/strict';
import type { DenError } from '../../../../src/core/client/errors';
import { beyondStatus, errorFromResponse } from '../../../../src/core/client/http-errors';
import { upgradeError } from '../../../../src/core/stream/upgrade-error';
import { presentError } from '../../../../src/model/shared/error-text';
import { errorOutcome } from '../../../../src/model/webtasks/run-words';

/** Issue 22 (7): an HTML 500 read "The service failed (500) (500)." Every status is said once. */
const STATUSES: [number, string][] = [
  [400, 'Bad Request'],
  [401, 'Unauthorized'],
  [403, 'Forbidden'],
  [404, 'Not Found'],
  [409, 'Conflict'],
  [422, 'Unprocessable Entity'],
  [429, 'Too Many Requests'],
  [500, 'Internal Server Error'],
  [501, 'Not Implemented'],
  [502, 'Bad Gateway'],
  [503, 'Service Unavailable'],
  [504, 'Gateway Timeout'],
];

/** Bodies a service or a proxy in front of it answers with; `keeps` is what must still be quoted. */
function bodies(status: number, reason: string): [string, string, string?][] {
  return [
    [
      'an HTML page titled with the status',
      `<!DOCTYPE html><html><head><title>${status} ${reason}</title></head><body><h1>${reason}</h1></body></html>`,
    ],
    [
      'an HTML page titled with the bare status',
      `<html><head><title>${status}</title></head><body></body></html>`,
    ],
    [
      'an HTML page without a title',
      `<html><body><center><h1>${status}</h1></center><hr>nginx</body></html>`,
    ],
    ['an HTML page titled "Error <status>"', `<html><head><title>Error ${status}</title></head></html>`],
    [
      'a JSON error with the status as its message',
      JSON.stringify({ error: 'failed', message: String(status) }),
    ],
    ['a JSON error naming the status', JSON.stringify({ message: `${reason} (${status})` })],
    [
      'a JSON error with words of its own',
      JSON.stringify({ error: 'x', message: 'database unavailable' }),
      'database unavailable',
    ],
    [
      'a JSON error with the status and words',
      JSON.stringify({ message: `${status} ${reason}: disk full` }),
      'disk full',
    ],
    ['an empty body', ''],
    ['a text body of the status', String(status)],
    ['a text status line', `HTTP/1.1 ${status} ${reason}`],
    ['a text body of the reason', reason],
    ['a text body "Error"', 'Error'],
  ];
}

function timesSaid(text: string, status: number): number {
  return text.match(new RegExp(`\\b${status}\\b`, 'g'))?.length ?? 0;
}

describe('status words: a status is said once, whatever the body', () => {
  for (const [status, reason] of STATUSES) {
    for (const [what, body, keeps] of bodies(status, reason)) {
      it(`${status} with ${what}`, () => {
        const fromHttp = errorFromResponse({ status, headers: {}, body }, { operation: 'list sessions' });
        const fromSocket = upgradeError(status, {}, body, undefined);
        const texts: [string, string][] = [];
        const add = (where: string, err: DenError): void => {
          texts.push([`${where}: the error`, err.message]);
          texts.push([`${where}: the panel`, presentError(err, 'load the session').message]);
          texts.push([`${where}: a web task`, errorOutcome(err, { stream: true }).message]);
        };
        add('HTTP', fromHttp);
        add('socket', fromSocket);
        for (const [where, text] of texts) {
          assert.ok(timesSaid(text, status) <= 1, `${where} says ${status} twice: ${text}`);
          assert.doesNotMatch(text, /\((\d{3})\)\s*\(\1\)/, `${where}: ${text}`);
        }
        // The service's own words are still quoted where the message quotes them.
        if (keeps && (status === 403 || status >= 500 || [400, 409, 422].includes(status)))
          assert.ok(presentError(fromHttp, 'load the session').message.includes(keeps), texts[1][1]);
        if (keeps && ([401, 403, 429].includes(status) || status >= 500))
          assert.ok(errorOutcome(fromHttp, { stream: true }).message.includes(keeps), texts[2][1]);
      });
    }
  }

  const table: [string, number, string | undefined][] = [
    ['500 Internal Server Error', 500, undefined],
    ['Internal Server Error', 500, undefined],
    ['HTTP/1.1 502 Bad Gateway', 502, undefined],
    ['Error 503: maintenance until 14:00', 503, 'maintenance until 14:00'],
    ['Service Unavailable (503)', 503, undefined],
    ['upstream timed out - 504', 504, 'upstream timed out'],
    ['database unavailable', 500, 'database unavailable'],
    ['Read-only key', 403, 'Read-only key'],
    ['  ', 500, undefined],
    ['x1500', 500, 'x1500'],
  ];
  for (const [words, status, left] of table) {
    it(`beyondStatus(“${words}”, ${status}) → ${left ?? 'nothing'}`, () => {
      assert.equal(beyondStatus(words, status), left);
    });
  }
});
