import assert from 'node:assert/strict';
import { walkFolder, type WalkFs } from '../../../../src/editor/attachments/folder-walk';

/** A fake folder tree: paths of files with their sizes; folders are implied. */
function fakeFs(files: Record<string, number>, unreadable: string[] = []): WalkFs & { listed: string[] } {
  const listed: string[] = [];
  return {
    listed,
    list: async (dir) => {
      listed.push(dir);
      if (unreadable.includes(dir)) throw new Error('EACCES');
      const prefix = dir ? `${dir}/` : '';
      const entries = new Map<string, 'file' | 'dir'>();
      for (const path of Object.keys(files)) {
        if (!path.startsWith(prefix)) continue;
        const [name, ...rest] = path.slice(prefix.length).split('/');
        entries.set(name, rest.length ? 'dir' : 'file');
      }
      return [...entries];
    },
    size: async (path) => files[path],
  };
}

describe('Folder walk', () => {
  it('finds every file, a folder’s files before its subfolders, in name order', async () => {
    const fs = fakeFs({ 'b.ts': 2, 'a/z.ts': 3, 'a/b/c.ts': 4, 'c.md': 1 });
    const r = await walkFolder(fs, { maxFiles: 100 });
    assert.deepEqual(r.files, [
      { path: 'b.ts', size: 2 },
      { path: 'c.md', size: 1 },
      { path: 'a/z.ts', size: 3 },
      { path: 'a/b/c.ts', size: 4 },
    ]);
    assert.equal(r.truncated, false);
  });

  it('never enters .git or node_modules, at any depth', async () => {
    const fs = fakeFs({ 'a.ts': 1, '.git/HEAD': 1, 'pkg/node_modules/x/i.js': 1, 'pkg/i.ts': 1 });
    const r = await walkFolder(fs, { maxFiles: 100 });
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['a.ts', 'pkg/i.ts'],
    );
    assert.equal(r.skipped, 2);
    assert.ok(!fs.listed.some((d) => d.includes('.git') || d.includes('node_modules')));
  });

  it('leaves out what the exclusion says, folders without reading them', async () => {
    const fs = fakeFs({ 'a.ts': 1, 'a.js': 1, 'out/x.js': 1 });
    const r = await walkFolder(fs, {
      maxFiles: 100,
      excluded: (path, isDir) => path.endsWith('.js') || (isDir && path === 'out'),
    });
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['a.ts'],
    );
    assert.ok(!fs.listed.includes('out'));
  });

  it('stops once it found more files than the limit, without reading their sizes', async () => {
    const files: Record<string, number> = {};
    for (let i = 0; i < 500; i++) files[`d${i % 7}/f${i}.txt`] = 1;
    let sized = 0;
    const fs = fakeFs(files);
    const size = fs.size;
    fs.size = (p) => {
      sized++;
      return size(p);
    };
    const r = await walkFolder(fs, { maxFiles: 10 });
    assert.equal(r.truncated, true);
    assert.equal(r.files.length, 11);
    assert.equal(sized, 11);
  });

  it('goes on past folders it cannot read, and names them', async () => {
    const r = await walkFolder(fakeFs({ 'a.ts': 1, 'secret/k.pem': 1 }, ['secret']), { maxFiles: 100 });
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['a.ts'],
    );
    assert.deepEqual(r.unreadable, ['secret']);
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    abort.abort(new Error('cancelled'));
    await assert.rejects(
      walkFolder(fakeFs({ 'a.ts': 1 }), { maxFiles: 10, signal: abort.signal }),
      /cancelled/,
    );
  });
});
