import assert from 'node:assert/strict';
import { lamRunBody, listSessionsParams, startTurnBody } from '../../../../src/core/client/wire';

describe('wire request mapping', () => {
  const paramsTable: [string, Parameters<typeof listSessionsParams>[0], Record<string, string>][] = [
    ['sends nothing for an empty query', {}, {}],
    ['clamps the page size to 100', { limit: 5000 }, { limit: '100' }],
    ['raises a page size below 1 to 1', { limit: 0 }, { limit: '1' }],
    ['raises page 0 to 1 and floors fractions', { page: 0.5, limit: 10.7 }, { page: '1', limit: '10' }],
    ['omits an empty search', { search: '' }, {}],
    [
      'passes search, sort and order',
      { search: 'auth', sort: 'title', order: 'asc' },
      { search: 'auth', sort: 'title', order: 'asc' },
    ],
  ];
  for (const [title, query, expected] of paramsTable) {
    it(`list query: ${title}`, () => {
      assert.deepEqual(listSessionsParams(query), expected);
    });
  }

  it('maps a turn request to wire names, leaving out what is unset', () => {
    assert.deepEqual(startTurnBody({ sessionId: 's', task: 't', effort: 'fast' }), {
      session_id: 's',
      task: 't',
      ace_version: 'fast',
      files: [],
    });
  });

  it("prefers the request's SDK version over the client's", () => {
    assert.equal(startTurnBody({ sessionId: 's', task: 't', sdkVersion: 'a' }, 'b').sdk_version, 'a');
    assert.equal(startTurnBody({ sessionId: 's', task: 't' }, 'b').sdk_version, 'b');
  });

  it('sends only the documented fields of a turn file', () => {
    const file = { key: 'k', name: 'n', type: 'text/plain', size: 1, extra: 'x' };
    assert.deepEqual(startTurnBody({ sessionId: 's', task: 't', files: [file] }).files, [
      { key: 'k', name: 'n', type: 'text/plain', size: 1 },
    ]);
  });

  it('maps a task run to wire names with the stream flag', () => {
    assert.deepEqual(lamRunBody({ query: 'q', appUrl: 'https://a', advanced: { blockAds: false } }, true), {
      query: 'q',
      app_url: 'https://a',
      stream: true,
      advanced: { block_ads: false },
    });
  });
});
