import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import type { AgentEvent, FileInfo, SessionDetail } from '../../../../src/core/client/types';
import type { DownloadContext } from '../../../../src/core/client/download';
import {
  FileLookupError,
  SessionFiles,
  type FileEvent,
} from '../../../../src/model/session-files/session-files';
import { FakeClock } from '../shared/fake-clock';

const SID = 'a1b2c3d4-0000-4000-8000-000000000001';

/** A stand-in service: a snapshot per session, contents by key, and counts of what was asked. */
class FakeService {
  snapshot: Record<string, FileInfo> = {};
  contents = new Map<string, Uint8Array>();
  events: AgentEvent[] = [];
  fetches = 0;
  downloads: { key: string; ctx: DownloadContext }[] = [];
  gone = false;
  served = true;
  /** When set, fetches wait for it. */
  gate?: Promise<void>;

  async fetch(sessionId: string): Promise<SessionDetail> {
    this.fetches++;
    await this.gate;
    if (this.gone) throw new DenError({ code: 'not_found', status: 404, message: 'Session not found' });
    return {
      session: {
        id: sessionId,
        sessionId,
        title: 't',
        createdAt: 1,
        updatedAt: 1_000,
        deleted: false,
        isPinned: false,
        fileSnapshot: structuredClone(this.snapshot),
      },
      messages: [
        {
          id: 'm1',
          sessionId,
          type: 'agent',
          content: '',
          createdAt: 1,
          aborted: false,
          files: [],
          events: this.events,
        },
      ],
    };
  }

  async download(file: FileInfo, ctx: DownloadContext): Promise<Uint8Array> {
    this.downloads.push({ key: file.key, ctx });
    const recovered = ctx.sessionEvents?.length ? this.contents.get(`events:${file.key}`) : undefined;
    if (recovered) return recovered;
    const bytes = this.served ? this.contents.get(file.key) : undefined;
    if (!bytes) throw new DenError({ code: 'unsupported', message: `cannot download ${file.name}` });
    return bytes;
  }

  put(path: string, text: string | Uint8Array, updatedAt = 10): FileInfo {
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    const key = `${SID}/${path}`;
    const info = { key, name: path, size: bytes.length, updatedAt };
    this.snapshot[key] = info;
    this.contents.set(key, bytes);
    return info;
  }
}

function rig(opts: { maxCacheBytes?: number } = {}) {
  const service = new FakeService();
  const clock = new FakeClock();
  const files = new SessionFiles({
    fetch: (id) => service.fetch(id),
    download: (f, ctx) => service.download(f, ctx),
    clock,
    refreshAfterMs: 1_000,
    ...opts,
  });
  const events: FileEvent[][] = [];
  files.onDidChange((e) => events.push(e));
  const summary = () => events.flat().map((e) => `${e.kind} ${e.type} ${e.path}`);
  return { service, clock, files, events, summary };
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function rejectsWith(p: Promise<unknown>, reason: FileLookupError['reason']): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof FileLookupError && e.reason === reason);
}

describe('SessionFiles', () => {
  it('stats files and synthesised directories from the stored snapshot, loaded once', async () => {
    const { service, files } = rig();
    service.put('src/lib/a.ts', 'export const a = 1;\n', 1_234);
    service.put('README.md', '# hi\n');
    assert.deepEqual(await files.stat(SID, 'src/lib/a.ts'), {
      type: 'file',
      file: { key: `${SID}/src/lib/a.ts`, name: 'src/lib/a.ts', size: 20, updatedAt: 1_234 },
      mtime: 1_234,
      size: 20,
    });
    assert.deepEqual(await files.stat(SID, '/src/lib/'), { type: 'directory', mtime: 1_234 });
    assert.deepEqual(await files.stat(SID, ''), { type: 'directory', mtime: 1_234 });
    assert.deepEqual(await files.list(SID, ''), [
      ['README.md', 'file'],
      ['src', 'directory'],
    ]);
    assert.deepEqual(await files.list(SID, 'src'), [['lib', 'directory']]);
    await rejectsWith(files.list(SID, 'README.md'), 'not-directory');
    assert.equal(service.fetches, 1);
    assert.deepEqual(files.sessions(), [SID]);
  });

  it('says "not found" for an unknown path, reloading an index older than the refresh age once', async () => {
    const { service, files, clock } = rig();
    service.put('a.txt', 'a');
    await rejectsWith(files.stat(SID, 'b.txt'), 'not-found');
    assert.equal(service.fetches, 1, 'a fresh index was reloaded');
    service.put('b.txt', 'b');
    clock.advance(1_000);
    assert.equal((await files.stat(SID, 'b.txt')).type, 'file');
    assert.equal(service.fetches, 2);
    await rejectsWith(files.stat(SID, 'c.txt'), 'not-found');
    assert.equal(service.fetches, 2);
  });

  it("passes on the service's error for an unknown session", async () => {
    const { service, files } = rig();
    service.gone = true;
    await assert.rejects(
      files.stat(SID, 'a.txt'),
      (e: unknown) => e instanceof DenError && e.code === 'not_found',
    );
  });

  it('reads bytes through the fetch chain once per key and updatedAt (binary intact), concurrent reads share one', async () => {
    const { service, files } = rig();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0x00]);
    service.put('img/logo.png', png);
    service.put('a.txt', 'hello');
    const [one, two] = await Promise.all([files.read(SID, 'img/logo.png'), files.read(SID, 'img/logo.png')]);
    assert.deepEqual(one, png);
    assert.equal(one, two);
    assert.equal(text(await files.read(SID, 'a.txt')), 'hello');
    await files.read(SID, 'a.txt');
    assert.equal(service.downloads.length, 2);
    assert.equal(files.cachedBytes, png.length + 5);
    await rejectsWith(files.read(SID, 'img'), 'is-directory');
  });

  it('keeps at most its size of contents, least recently used out', async () => {
    const { service, files } = rig({ maxCacheBytes: 10 });
    service.put('a', '123456');
    service.put('b', '123456');
    await files.read(SID, 'a');
    await files.read(SID, 'b');
    assert.equal(files.cachedBytes, 6);
    await files.read(SID, 'b');
    await files.read(SID, 'a');
    assert.deepEqual(
      service.downloads.map((d) => d.key),
      [`${SID}/a`, `${SID}/b`, `${SID}/a`],
    );
  });

  it("recovers a file the service does not serve from the session's events, fetched anew", async () => {
    const { service, files } = rig();
    service.put('gen.ts', 'x');
    service.served = false;
    service.events = [{ event_id: 1, kind: 'tool.parameters', payload: {}, timestamp: 1 }];
    service.contents.set(`events:${SID}/gen.ts`, new TextEncoder().encode('from events'));
    assert.equal(text(await files.read(SID, 'gen.ts')), 'from events');
    assert.equal(service.downloads.length, 2);
    assert.equal(service.downloads[1].ctx.sessionEvents?.length, 1);
    service.contents.delete(`events:${SID}/gen.ts`);
    files.forget(SID);
    await assert.rejects(
      files.read(SID, 'gen.ts'),
      (e: unknown) => e instanceof DenError && e.code === 'unsupported',
    );
  });

  it('applies live changes: created files and directories, changed files (their bytes fetched again), deletions', async () => {
    const { service, files, summary } = rig();
    service.put('src/a.ts', 'v1', 10);
    assert.equal(text(await files.read(SID, 'src/a.ts')), 'v1');
    service.put('src/a.ts', 'v2', 20);
    service.put('docs/new/b.md', 'b', 20);
    files.update(SID, {
      kind: 'changes',
      updated: {
        'src/a.ts': { key: `${SID}/src/a.ts`, name: 'src/a.ts', size: 0, updatedAt: 20 },
        'docs/new/b.md': { key: `${SID}/docs/new/b.md`, name: 'docs/new/b.md', size: 0, updatedAt: 20 },
      },
      deleted: [],
    });
    assert.deepEqual(summary(), [
      'changed file src/a.ts',
      'created directory docs',
      'created directory docs/new',
      'created file docs/new/b.md',
    ]);
    assert.equal(text(await files.read(SID, 'src/a.ts')), 'v2');
    assert.equal((await files.stat(SID, 'docs/new/b.md')).type, 'file');
    assert.deepEqual(await files.stat(SID, 'src/a.ts'), {
      type: 'file',
      file: { key: `${SID}/src/a.ts`, name: 'src/a.ts', size: 2, updatedAt: 20 },
      mtime: 20,
      size: 2,
    });
    files.update(SID, { kind: 'changes', updated: {}, deleted: ['docs/new/b.md', 'never/was.txt'] });
    assert.deepEqual(summary().slice(4), [
      'deleted file docs/new/b.md',
      'deleted directory docs/new',
      'deleted directory docs',
    ]);
    await rejectsWith(files.stat(SID, 'docs/new/b.md'), 'not-found');
    // The same snapshot again is no change.
    files.update(SID, {
      kind: 'changes',
      updated: { 'src/a.ts': { key: `${SID}/src/a.ts`, name: 'src/a.ts', size: 0, updatedAt: 20 } },
      deleted: [],
    });
    assert.equal(summary().length, 7);
  });

  it('merges a stored snapshot without deleting, and ignores entries older than what it shows', async () => {
    const { service, files, summary } = rig();
    service.put('a.txt', 'a', 50);
    await files.stat(SID, 'a.txt');
    files.update(SID, {
      kind: 'stored',
      files: {
        [`${SID}/a.txt`]: { key: `${SID}/a.txt`, name: 'a.txt', size: 1, updatedAt: 40 },
        [`${SID}/b.txt`]: { key: `${SID}/b.txt`, name: 'b.txt', size: 1, updatedAt: 60 },
      },
    });
    assert.deepEqual(summary(), ['created file b.txt']);
    assert.equal((await files.stat(SID, 'a.txt')).type, 'file');
  });

  it('applies changes that come while the index loads to what the load brings', async () => {
    const { service, files, summary } = rig();
    service.put('a.txt', 'a', 10);
    let release!: () => void;
    service.gate = new Promise((r) => (release = r));
    const stat = files.stat(SID, 'b.txt');
    files.update(SID, {
      kind: 'changes',
      updated: { 'b.txt': { key: `${SID}/b.txt`, name: 'b.txt', size: 0, updatedAt: 11 } },
      deleted: ['a.txt'],
    });
    assert.deepEqual(summary(), ['changed file b.txt', 'deleted file a.txt']);
    release();
    assert.equal((await stat).type, 'file');
    await rejectsWith(files.stat(SID, 'a.txt'), 'not-found');
  });

  it('adds a file a transcript shows when the stored snapshot leaves it out, and only then', async () => {
    const { service, files, summary } = rig();
    service.put('a.txt', 'a', 10);
    service.contents.set('opaque-key', new TextEncoder().encode('unlisted'));
    await files.ensure(SID, 'out/report.md', { key: 'opaque-key', name: 'report.md', size: 0 });
    await files.ensure(SID, 'a.txt', { key: 'other', name: 'a.txt', size: 0, updatedAt: 99 });
    assert.deepEqual(summary(), ['created directory out', 'created file out/report.md']);
    assert.equal(text(await files.read(SID, 'out/report.md')), 'unlisted');
    assert.equal(text(await files.read(SID, 'a.txt')), 'a');
  });

  it('reports what a reload found changed, and forgets everything on `forget()`', async () => {
    const { service, files, clock, summary } = rig();
    service.put('a.txt', 'a', 10);
    service.put('b.txt', 'b', 10);
    await files.stat(SID, 'a.txt');
    delete service.snapshot[`${SID}/b.txt`];
    service.put('a.txt', 'a2', 11);
    service.put('c/d.txt', 'd', 11);
    clock.advance(1_000);
    await rejectsWith(files.stat(SID, 'zzz'), 'not-found');
    assert.deepEqual(summary(), [
      'created directory c',
      'changed file a.txt',
      'created file c/d.txt',
      'deleted file b.txt',
    ]);
    files.forget();
    assert.deepEqual(files.sessions(), []);
    assert.equal(files.cachedBytes, 0);
  });
});
