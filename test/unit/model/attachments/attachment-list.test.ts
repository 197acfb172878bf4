import assert from 'node:assert/strict';
import type { TurnFile } from '../../../../src/core/client/types';
import { AttachmentList, type AttachmentSpec } from '../../../../src/model/attachments/attachment-list';
import { UploadIndex } from '../../../../src/model/attachments/upload-index';

const S = 'sess';

function file(name: string, size = 3): TurnFile {
  return { key: `${S}/${name}`, name, type: 'text/plain', size };
}

/** A list whose uploads are counted, and held until `release` when `hold` is set. */
function rig(index = new UploadIndex()) {
  let changes = 0;
  const list = new AttachmentList(() => changes++, index);
  const uploads: string[] = [];
  const spec = (
    name: string,
    hash: string | undefined,
    over: Partial<AttachmentSpec> = {},
  ): AttachmentSpec => ({
    name,
    size: 3,
    key: `${S}/${name}`,
    ...(hash ? { hash } : {}),
    upload: async () => {
      uploads.push(name);
      return file(name);
    },
    ...over,
  });
  return { list, index, uploads, spec, changes: () => changes };
}

describe('Upload index', () => {
  it('gives back the file recorded for a content', () => {
    const index = new UploadIndex();
    index.record('h1', file('a.txt'));
    assert.deepEqual(index.get('h1'), file('a.txt'));
    assert.equal(index.get('h2'), undefined);
  });

  it('forgets a content whose key was written with another one', () => {
    const index = new UploadIndex();
    index.record('old', file('a.txt'));
    index.record('new', file('a.txt', 9));
    assert.equal(index.get('old'), undefined);
    assert.deepEqual(index.get('new'), file('a.txt', 9));
  });

  it('forgets contents under keys a turn wrote', () => {
    const index = new UploadIndex();
    index.record('h1', file('a.txt'));
    index.record('h2', file('b.txt'));
    index.forgetKeys([`${S}/a.txt`]);
    assert.equal(index.get('h1'), undefined);
    assert.ok(index.get('h2'));
  });

  it('keeps the most recently used contents up to its size', () => {
    const index = new UploadIndex(2);
    index.record('h1', file('1'));
    index.record('h2', file('2'));
    index.get('h1');
    index.record('h3', file('3'));
    assert.equal(index.size, 2);
    assert.ok(index.get('h1'));
    assert.equal(index.get('h2'), undefined);
  });
});

describe('Attachment list: the same content once', () => {
  it('does not add a second chip for content already in the composer', async () => {
    const r = rig();
    assert.equal((await r.list.add(r.spec('a.txt', 'h'))).outcome, 'uploaded');
    assert.equal((await r.list.add(r.spec('copy-of-a.txt', 'h'))).outcome, 'duplicate');
    assert.deepEqual(r.uploads, ['a.txt']);
    assert.equal(r.list.views().length, 1);
  });

  it('does not add a second chip while the first is still uploading', async () => {
    const r = rig();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = r.list.add(
      r.spec('a.txt', 'h', {
        upload: async () => {
          await held;
          return file('a.txt');
        },
      }),
    );
    assert.equal((await r.list.add(r.spec('a.txt', 'h'))).outcome, 'duplicate');
    release();
    assert.equal((await first).outcome, 'uploaded');
    assert.equal(r.list.views().length, 1);
  });

  it('reuses content the session holds from an earlier turn: a ready chip, no upload', async () => {
    const r = rig();
    await r.list.add(r.spec('a.txt', 'h'));
    r.list.clear(r.list.ready().ids);
    const again = await r.list.add(r.spec('a.txt', 'h'));
    assert.equal(again.outcome, 'reused');
    assert.deepEqual(r.uploads, ['a.txt']);
    assert.deepEqual(
      r.list.views().map((v) => [v.name, v.status]),
      [['a.txt', 'ready']],
    );
    assert.deepEqual(r.list.ready().files, [file('a.txt')]);
  });

  it('uploads again once another content was written under the same key', async () => {
    const r = rig();
    await r.list.add(r.spec('a.txt', 'old'));
    r.list.clear(r.list.ready().ids);
    await r.list.add(r.spec('a.txt', 'new'));
    r.list.clear(r.list.ready().ids);
    assert.equal((await r.list.add(r.spec('a.txt', 'old'))).outcome, 'uploaded');
    assert.deepEqual(r.uploads, ['a.txt', 'a.txt', 'a.txt']);
  });

  it('uploads content without a hash every time', async () => {
    const r = rig();
    await r.list.add(r.spec('a.txt', undefined));
    await r.list.add(r.spec('b.txt', undefined));
    assert.deepEqual(r.uploads, ['a.txt', 'b.txt']);
  });

  it('retries content whose chip failed, in place of that chip', async () => {
    const r = rig();
    const failed = await r.list.add(
      r.spec('a.txt', 'h', {
        upload: async () => {
          throw new Error('disk on fire');
        },
      }),
    );
    assert.equal(failed.outcome, 'failed');
    assert.equal((await r.list.add(r.spec('a.txt', 'h'))).outcome, 'uploaded');
    assert.deepEqual(
      r.list.views().map((v) => v.status),
      ['ready'],
    );
  });

  it('removes the chip and cancels the upload when the spec’s signal aborts', async () => {
    const r = rig();
    const abort = new AbortController();
    let aborted = false;
    const result = r.list.add(
      r.spec('a.txt', 'h', {
        signal: abort.signal,
        upload: (_progress, signal) =>
          new Promise<TurnFile>((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('aborted'));
            });
          }),
      }),
    );
    assert.equal(r.list.views().length, 1);
    abort.abort();
    assert.equal((await result).outcome, 'removed');
    assert.equal(aborted, true);
    assert.deepEqual(r.list.views(), []);
    assert.equal((await r.list.add(r.spec('b.txt', 'h2', { signal: abort.signal }))).outcome, 'removed');
  });

  it('marks unsaved content on its chip and gives the references of ready chips', async () => {
    const r = rig();
    await r.list.add(
      r.spec('a.ts', 'h', {
        unsaved: true,
        reference: (f) => ({ type: 'file', path: 'src/a.ts', attachment: f.name, unsaved: true }),
      }),
    );
    await r.list.add(r.spec('b.ts', 'h2'));
    assert.equal(r.list.views()[0].unsaved, true);
    assert.equal(r.list.views()[1].unsaved, undefined);
    assert.deepEqual(r.list.ready().references, [
      { type: 'file', path: 'src/a.ts', attachment: 'a.ts', unsaved: true },
    ]);
    assert.deepEqual(r.list.names(), ['a.ts', 'b.ts']);
  });
});
