import assert from 'node:assert/strict';
import { contentHash } from '../../../../src/core/merge/hash';
import { hunkEntry, hunksOfFile, partlyApplied, readHunkFile } from '../../../../src/model/apply/hunk-plan';
import { basesOf, bytes, fakeFolder, text } from './apply-rig';

const base = 'a\nb\nc\nd\ne\n';
const agent = 'A\nb\nc\nd\nE\n';
const at = { path: '/workspace/x.ts', relPath: 'x.ts' };

describe('model/apply/hunk-plan', () => {
  it('reads the workspace (an editor’s unsaved text counts as the folder gives it) and the base', async () => {
    const folder = fakeFolder({ files: { 'x.ts': base }, dirty: ['x.ts'] });
    const f = await readHunkFile(folder, basesOf({ 'x.ts': base }), at, bytes(agent));
    assert.deepEqual([text(f.workspace), text(f.base), f.dirty], [base, base, true]);
    const r = hunksOfFile(f);
    assert.ok(r.ok);
    assert.deepEqual(
      r.hunks.map((h) => h.state),
      ['pending', 'pending'],
    );
  });

  it('takes a base kept only as a hash when the workspace is exactly it; else merges without a base', async () => {
    const folder = fakeFolder({ files: { 'x.ts': base, 'y.ts': 'other\n' } });
    const hashOnly = basesOf({ 'x.ts': { hashOf: base }, 'y.ts': { hashOf: base } });
    const f = await readHunkFile(folder, hashOnly, at, bytes(agent));
    assert.equal(text(f.base), base);
    const g = await readHunkFile(folder, hashOnly, { path: 'y', relPath: 'y.ts' }, bytes(agent));
    assert.equal(g.base, undefined);
  });

  it('the entry for an accepted hunk: a merge expecting the workspace as read, not dirty, counted', async () => {
    const folder = fakeFolder({ files: { 'x.ts': base } });
    const f = await readHunkFile(folder, basesOf({ 'x.ts': base }), at, bytes(agent));
    const r = hunkEntry(f, { accept: [1] });
    assert.ok(r.ok && r.entry);
    assert.equal(r.entry.action, 'merge');
    assert.equal(text(r.entry.newContent), 'a\nb\nc\nd\nE\n');
    assert.equal(r.entry.expected, contentHash(bytes(base)));
    assert.deepEqual(r.entry.stats, { added: 1, removed: 1 });
    assert.equal(r.entry.dirty, false);
    // Partly applied once written.
    assert.deepEqual(partlyApplied({ ...f, workspace: r.entry.newContent }), { applied: 1, total: 2 });
  });

  it('nothing to write: a rejected pending hunk; an accepted conflict: markers and its count', async () => {
    const folder = fakeFolder({ files: { 'x.ts': 'mine\nb\nc\nd\ne\n' } });
    const f = await readHunkFile(folder, basesOf({ 'x.ts': base }), at, bytes(agent));
    assert.deepEqual(hunkEntry(f, { reject: [1] }), { ok: true, entry: undefined, conflicts: 0 });
    const r = hunkEntry(f, { accept: [0] });
    assert.ok(r.ok && r.entry);
    assert.equal(r.entry.action, 'mergeWithConflicts');
    assert.equal(r.conflicts, 1);
    assert.equal(r.entry.conflicts?.length, 1);
  });

  it('a file the agent created: a create over no file; a deleted one is refused hunk by hunk', async () => {
    const folder = fakeFolder();
    const f = await readHunkFile(folder, basesOf({}), at, bytes('new\n'));
    const r = hunkEntry(f, { accept: [0] });
    assert.ok(r.ok && r.entry);
    assert.deepEqual([r.entry.action, r.entry.expected, text(r.entry.newContent)], ['create', null, 'new\n']);
    const gone = await readHunkFile(fakeFolder({ files: { 'x.ts': base } }), basesOf({}), at, undefined);
    assert.deepEqual(hunkEntry(gone, { accept: [0] }), { ok: false, reason: 'deleted' });
    assert.equal(partlyApplied(gone), undefined);
  });

  it('partly applied needs a base: without one, the hunks cannot tell what is already there', async () => {
    const folder = fakeFolder({ files: { 'x.ts': 'A\nb\nc\nd\ne\n' } });
    const f = await readHunkFile(folder, basesOf({}), at, bytes(agent));
    assert.equal(partlyApplied(f), undefined);
  });
});
