import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import type { AgentEvent, FileInfo, Message, SessionDetail } from '../../../../src/core/client/types';
import {
  fileVersionQuery,
  isFileVersion,
  parseFileVersionQuery,
  sessionFileUriPath,
} from '../../../../src/model/session-files/file-index';
import { SessionFiles } from '../../../../src/model/session-files/session-files';

const SID = 'a1b2c3d4-0000-4000-8000-0000000000f1';
const KEY = `${SID}/src/a.ts`;

describe('den-session: file versions in the URI query', () => {
  it('round-trips a key and updatedAt through the query, as an ISO time', () => {
    const q = fileVersionQuery({ key: KEY, updatedAt: Date.UTC(2026, 10, 24, 2, 40, 1, 250) });
    assert.equal(
      q,
      `key=${encodeURIComponent(KEY)}&updatedAt=${encodeURIComponent('2026-11-24T02:40:01.250Z')}`,
    );
    assert.deepEqual(parseFileVersionQuery(q), {
      key: KEY,
      updatedAt: Date.UTC(2026, 10, 24, 2, 40, 1, 250),
    });
  });

  const cases: [string, string, ReturnType<typeof parseFileVersionQuery>][] = [
    ['no query: the current version', '', undefined],
    ['a key without updatedAt', 'key=k%20%26%3D', { key: 'k &=' }],
    ['no key', 'updatedAt=2026-01-01T00:00:00.000Z', undefined],
    ['an empty key', 'key=&updatedAt=2026-01-01T00:00:00.000Z', undefined],
    ['a time that is not one', 'key=k&updatedAt=yesterday', undefined],
  ];
  for (const [title, query, expected] of cases) {
    it(`reads ${title}`, () => assert.deepEqual(parseFileVersionQuery(query), expected));
  }

  it('leaves out an updatedAt that is no time, and keeps the path apart from the query', () => {
    assert.equal(fileVersionQuery({ key: 'k', updatedAt: Number.NaN }), 'key=k');
    assert.equal(sessionFileUriPath(SID, '/workspace/src/a.ts'), `/${SID}/workspace/src/a.ts`);
  });

  it('compares versions by key and updatedAt; a version without updatedAt is what its key holds', () => {
    assert.equal(isFileVersion({ key: 'k', updatedAt: 1 }, { key: 'k', updatedAt: 1 }), true);
    assert.equal(isFileVersion({ key: 'k', updatedAt: 1 }, { key: 'k', updatedAt: 2 }), false);
    assert.equal(isFileVersion({ key: 'k' }, { key: 'k2' }), false);
    assert.equal(isFileVersion({ key: 'k' }, { key: 'k' }), true);
    assert.equal(isFileVersion({ key: 'k', updatedAt: 3 }, { key: 'k' }), true);
    assert.equal(isFileVersion({ key: 'k' }, { key: 'k', updatedAt: 3 }), false);
  });
});

/** Two turns that write src/a.ts: the service keys both versions alike and serves only the latest. */
function twoTurns(opts: { versionedKeys?: boolean; events?: boolean } = {}) {
  const enc = (t: string) => new TextEncoder().encode(t);
  const keyOf = (at: number) => (opts.versionedKeys ? `${KEY}@${at}` : KEY);
  const turn = (id: string, at: number, text: string): Message => {
    const events: AgentEvent[] = [
      {
        event_id: 1,
        timestamp: at,
        kind: 'tool.parameters',
        payload: { parameters: opts.events === false ? {} : { path: 'src/a.ts', content: text } },
      },
      {
        event_id: 2,
        timestamp: at,
        kind: 'sandbox.snapshot',
        payload: {
          snapshot: { 'src/a.ts': { key: keyOf(at), name: 'src/a.ts', updatedAt: at } },
          deleted: [],
        },
      },
    ];
    return {
      id,
      sessionId: SID,
      type: 'agent',
      content: '',
      createdAt: at,
      aborted: false,
      files: [],
      events,
    };
  };
  const contents = new Map<string, Uint8Array>([
    [KEY, enc('second\n')],
    [`${KEY}@100`, enc('first\n')],
    [`${KEY}@200`, enc('second\n')],
  ]);
  const downloads: string[] = [];
  let fetches = 0;
  const detail = (): SessionDetail => ({
    session: {
      id: SID,
      sessionId: SID,
      title: 't',
      createdAt: 1,
      updatedAt: 200,
      deleted: false,
      isPinned: false,
      fileSnapshot: { [KEY]: { key: keyOf(200), name: 'src/a.ts', size: 7, updatedAt: 200 } },
    },
    messages: [turn('m1', 100, 'first\n'), turn('m2', 200, 'second\n')],
  });
  const files = new SessionFiles({
    fetch: async () => {
      fetches++;
      return detail();
    },
    download: async (file: FileInfo) => {
      downloads.push(file.key);
      const bytes = contents.get(file.key);
      if (!bytes) throw new DenError({ code: 'unsupported', message: 'not served' });
      return bytes;
    },
  });
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { files, downloads, fetches: () => fetches, text, keyOf };
}

describe('SessionFiles: reading a turn’s version of a file', () => {
  it('reads an earlier version from the events up to its turn when the service keys every version alike', async () => {
    const r = twoTurns();
    assert.equal(r.text(await r.files.read(SID, 'src/a.ts')), 'second\n');
    const first = await r.files.readVersion(SID, 'src/a.ts', { key: KEY, updatedAt: 100 });
    assert.equal(r.text(first), 'first\n');
    assert.deepEqual(r.downloads, [KEY], 'the shared key serves the latest: not asked for the earlier one');
    const fetched = r.fetches();
    assert.equal(r.text(await r.files.readVersion(SID, 'src/a.ts', { key: KEY, updatedAt: 100 })), 'first\n');
    assert.equal(r.fetches(), fetched, 'kept by key and updatedAt');
    assert.equal(r.files.statVersion(SID, 'src/a.ts', { key: KEY, updatedAt: 100 }).type, 'file');
  });

  it('fetches a version under its own key through the download chain', async () => {
    const r = twoTurns({ versionedKeys: true, events: false });
    const first = await r.files.readVersion(SID, 'src/a.ts', { key: r.keyOf(100), updatedAt: 100 });
    assert.equal(r.text(first), 'first\n');
    assert.ok(r.downloads.includes(r.keyOf(100)));
  });

  it('reads the current version as the path’s current bytes', async () => {
    const r = twoTurns();
    const now = await r.files.readVersion(SID, 'src/a.ts', { key: KEY, updatedAt: 200 });
    assert.equal(r.text(now), 'second\n');
    assert.deepEqual(r.downloads, [KEY]);
  });

  it('says so when neither the service nor the events hold the earlier version', async () => {
    const r = twoTurns({ events: false });
    await assert.rejects(
      r.files.readVersion(SID, 'src/a.ts', { key: KEY, updatedAt: 100 }),
      (err: unknown) => err instanceof DenError && /only the latest version of src\/a\.ts/.test(err.message),
    );
  });
});
