import assert from 'node:assert/strict';
import { ByteCache } from '../../../../src/model/shared/byte-cache';
import {
  FileTree,
  filesByPath,
  normalizeFilePath,
  parseSessionFileUriPath,
  sessionFilePath,
  sessionFileUriPath,
  snapshotChanges,
} from '../../../../src/model/session-files/file-index';

const SID = '3f2c9a60-1b7e-4c1a-9d2e-5a6b7c8d9e0f';

describe('file-index: paths of generated files', () => {
  it('normalizes a path: separators, empty and dot segments, `..` kept inside the path', () => {
    assert.equal(normalizeFilePath('/src//a/./b.ts/'), 'src/a/b.ts');
    assert.equal(normalizeFilePath('src\\win\\c.ts'), 'src/win/c.ts');
    assert.equal(normalizeFilePath('a/../b.ts'), 'b.ts');
    assert.equal(normalizeFilePath('../../etc/passwd'), 'etc/passwd');
    assert.equal(normalizeFilePath('/'), '');
  });

  it("takes a snapshot entry's path from a path key, a storage key or a URL key", () => {
    assert.equal(sessionFilePath(SID, 'src/a.ts'), 'src/a.ts');
    assert.equal(sessionFilePath(SID, `${SID}/src/a.ts`), 'src/a.ts');
    assert.equal(sessionFilePath(SID, `/${SID}/src/a.ts`), 'src/a.ts');
    assert.equal(sessionFilePath(SID, `https://cdn.example/media/${SID}/src/a%20b.ts?sig=1`), 'src/a b.ts');
    assert.equal(
      sessionFilePath(SID, 'https://cdn.example/opaque/123', { name: 'report.pdf' }),
      'report.pdf',
    );
  });

  it('maps a snapshot to paths: the variants of one file become one path', () => {
    const f = (key: string) => ({ key, name: 'src/a.ts', size: 3 });
    const byPath = filesByPath(SID, { [`${SID}/src/a.ts`]: f('k1'), 'docs/x.md': f('k2'), '': f('k3') });
    assert.deepEqual([...byPath.keys()], ['src/a.ts', 'docs/x.md']);
  });

  it('maps a URI path to (session, path) and back', () => {
    assert.equal(sessionFileUriPath(SID, 'src/a.ts'), `/${SID}/src/a.ts`);
    assert.equal(sessionFileUriPath(SID, ''), `/${SID}`);
    assert.deepEqual(parseSessionFileUriPath(`/${SID}/src/a.ts`), { sessionId: SID, path: 'src/a.ts' });
    assert.deepEqual(parseSessionFileUriPath(`/${SID}`), { sessionId: SID, path: '' });
    assert.deepEqual(parseSessionFileUriPath(`/${SID}/`), { sessionId: SID, path: '' });
    assert.equal(parseSessionFileUriPath('/'), undefined);
  });

  it("reads a sandbox.snapshot's changes; malformed entries are tolerated, empty ones are none", () => {
    assert.deepEqual(
      snapshotChanges({
        sandbox_id: 'sbx',
        snapshot: {
          '/src/a.ts': { key: `${SID}/src/a.ts`, name: 'src/a.ts', updatedAt: 5 },
          'b.txt': { updated_at: 7 },
          'c.bin': 'garbage',
        },
        deleted: ['old.ts', 42, '/src/a.ts'],
      }),
      {
        updated: {
          'src/a.ts': { key: `${SID}/src/a.ts`, name: 'src/a.ts', size: 0, updatedAt: 5 },
          'b.txt': { key: 'b.txt', name: 'b.txt', size: 0, updatedAt: 7 },
          'c.bin': { key: 'c.bin', name: 'c.bin', size: 0 },
        },
        deleted: ['old.ts'],
      },
    );
    assert.equal(snapshotChanges({ snapshot: {}, deleted: [] }), undefined);
    assert.equal(snapshotChanges({}), undefined);
  });
});

describe('file-index: FileTree', () => {
  it('synthesises directories from paths and lists them sorted, directories and files alike', () => {
    const t = new FileTree();
    assert.deepEqual(t.add('src/lib/a.ts'), ['src', 'src/lib']);
    assert.deepEqual(t.add('src/b.ts'), []);
    assert.deepEqual(t.add('README.md'), []);
    assert.deepEqual(t.list(''), [
      ['README.md', 'file'],
      ['src', 'directory'],
    ]);
    assert.deepEqual(t.list('src'), [
      ['b.ts', 'file'],
      ['lib', 'directory'],
    ]);
    assert.equal(t.typeOf('src/lib'), 'directory');
    assert.equal(t.typeOf('src/b.ts'), 'file');
    assert.equal(t.typeOf('nope'), undefined);
    assert.equal(t.list('src/b.ts'), undefined);
    assert.equal(t.list('nope'), undefined);
  });

  it('removes directories when their last file goes, innermost first', () => {
    const t = new FileTree();
    t.add('src/lib/a.ts');
    t.add('src/b.ts');
    assert.deepEqual(t.remove('src/lib/a.ts'), ['src/lib']);
    assert.deepEqual(t.remove('src/b.ts'), ['src']);
    assert.deepEqual(t.remove('src/b.ts'), []);
    assert.deepEqual(t.list(''), []);
    assert.equal(t.size, 0);
  });

  it('lets a file win where a path is both a file and a directory', () => {
    const t = new FileTree();
    t.add('a');
    t.add('a/b');
    assert.equal(t.typeOf('a'), 'file');
    assert.deepEqual(t.list(''), [['a', 'file']]);
  });
});

describe('ByteCache', () => {
  const bytes = (n: number) => new Uint8Array(n);

  it('keeps bytes by key and version; another version is a miss and is dropped', () => {
    const c = new ByteCache(100);
    c.set('a', 'v1', bytes(10));
    assert.equal(c.get('a', 'v1')?.length, 10);
    assert.equal(c.get('a', 'v2'), undefined);
    assert.equal(c.get('a', 'v1'), undefined);
    assert.equal(c.bytes, 0);
  });

  it('drops the least recently used entries beyond its size, and never keeps one larger than it', () => {
    const c = new ByteCache(100);
    c.set('a', 'v', bytes(40));
    c.set('b', 'v', bytes(40));
    c.get('a', 'v');
    c.set('c', 'v', bytes(40));
    assert.equal(c.get('b', 'v'), undefined, 'the least recently used entry stayed');
    assert.ok(c.get('a', 'v') && c.get('c', 'v'));
    assert.equal(c.bytes, 80);
    c.set('huge', 'v', bytes(101));
    assert.equal(c.get('huge', 'v'), undefined);
    assert.equal(c.bytes, 80);
    c.set('a', 'v2', bytes(5));
    assert.equal(c.bytes, 45);
    c.deleteWhere((k) => k === 'c');
    assert.equal(c.count, 1);
  });
});
