import assert from 'node:assert/strict';
import {
  FileStatusModel,
  type StatusFile,
  type StatusInput,
} from '../../../../src/model/session-files/file-status';
import { agentFile, basesOf, bytes, fakeFolder, type Bytes, type FakeFolder } from '../apply/apply-rig';

/** The agent's file at a version; `null`: deleted. Counts reads of its bytes. */
function statusFile(path: string, content: Bytes | null, version = 'k1@1'): StatusFile & { reads(): number } {
  const f = agentFile(path, content);
  return Object.assign(f.file, { version, reads: f.readCount });
}

/** A model over one session `s1` whose input a test can change between calls. */
function rig(files: StatusFile[], folder: FakeFolder, bases: Record<string, Bytes> = {}) {
  const state = { files, loads: 0, folder: folder as FakeFolder | undefined };
  const model = new FileStatusModel({
    load: async (): Promise<StatusInput | undefined> => {
      state.loads++;
      return state.folder && { files: state.files, folder: state.folder, base: basesOf(bases) };
    },
  });
  const stale: string[] = [];
  model.onDidChange((id) => stale.push(id));
  return { model, state, stale };
}

/** Records every property of the folder the model touches (a write would have to go through one). */
function watched(folder: FakeFolder): { folder: FakeFolder; used: Set<string> } {
  const used = new Set<string>();
  const proxy = new Proxy(folder, {
    get(target, prop, receiver) {
      used.add(String(prop));
      return Reflect.get(target, prop, receiver) as unknown;
    },
    set: () => false,
  });
  return { folder: proxy, used };
}

describe('FileStatusModel', () => {
  it('gives each file its state and line counts, read from the apply plan', async () => {
    const folder = fakeFolder({
      files: { 'mod.ts': 'a\nb\n', 'same.ts': 'x\n', 'gone.ts': 'g1\ng2\n', 'both.ts': 'mine\n' },
    });
    const { model } = rig(
      [
        statusFile('new.ts', 'n1\nn2\nn3\n'),
        statusFile('mod.ts', 'a\nB\nc\n'),
        statusFile('same.ts', 'x\n'),
        statusFile('gone.ts', null),
        statusFile('both.ts', 'agent\n'),
        statusFile('../out.ts', 'x\n'),
      ],
      folder,
      { 'both.ts': 'base\n' },
    );
    const s = await model.statuses('s1');
    assert.deepEqual(s.get('new.ts'), { state: 'new', added: 3, removed: 0 });
    assert.deepEqual(
      { ...s.get('mod.ts'), reason: undefined },
      { state: 'modified', added: 2, removed: 1, reason: undefined },
    );
    assert.equal(s.get('same.ts')?.state, 'identical');
    assert.deepEqual([s.get('same.ts')?.added, s.get('same.ts')?.removed], [0, 0]);
    assert.deepEqual(
      { state: s.get('gone.ts')?.state, added: s.get('gone.ts')?.added, removed: s.get('gone.ts')?.removed },
      { state: 'deleted', added: 0, removed: 2 },
    );
    assert.equal(s.get('both.ts')?.state, 'conflicts');
    assert.equal(s.get('both.ts')?.conflicts, 1);
    assert.equal(s.get('../out.ts')?.state, 'refused');
    assert.match(s.get('../out.ts')?.reason ?? '', /\.\./);
  });

  it('says a file is partly applied when the workspace has some of the agent’s hunks, with the counts', async () => {
    const base = 'a\nb\nc\nd\ne\nf\ng\n';
    const agent = 'A\nb\nc\nD\ne\nf\nG\n';
    const folder = fakeFolder({
      files: { 'p.ts': 'A\nb\nc\nd\ne\nf\ng\n', 'all.ts': agent, 'none.ts': base },
    });
    const { model } = rig(
      [statusFile('p.ts', agent), statusFile('all.ts', agent), statusFile('none.ts', agent)],
      folder,
      { 'p.ts': base, 'all.ts': base, 'none.ts': base },
    );
    const s = await model.statuses('s1');
    assert.deepEqual(
      { state: s.get('p.ts')?.state, hunks: s.get('p.ts')?.hunks, added: s.get('p.ts')?.added },
      { state: 'partly', hunks: { applied: 1, total: 3 }, added: 2 },
    );
    assert.equal(s.get('all.ts')?.state, 'identical');
    assert.equal(s.get('none.ts')?.state, 'modified');
    assert.equal(s.get('none.ts')?.hunks, undefined);
  });

  it('shows a file it could not fetch as failed, with why', async () => {
    const f = Object.assign(agentFile('a.ts', 'x\n', { fails: true }).file, { version: 'k@1' });
    const { model } = rig([f], fakeFolder());
    const s = await model.statuses('s1');
    assert.equal(s.get('a.ts')?.state, 'failed');
    assert.match(s.get('a.ts')?.reason ?? '', /404/);
  });

  it('keeps the statuses while the files and the workspace are unchanged', async () => {
    const folder = fakeFolder({ files: { 'a.ts': 'a\n' } });
    const a = statusFile('a.ts', 'a\nb\n');
    const { model } = rig([a], folder);
    const first = await model.statuses('s1');
    const reads = folder.reads.length;
    const again = await model.statuses('s1');
    assert.equal(again, first);
    assert.equal(folder.reads.length, reads, 'no workspace file read again');
    assert.equal(a.reads(), 1);
    assert.equal(model.peek('s1'), first);
  });

  it('computes again after a workspace change to a planned file, without fetching the agent’s bytes again', async () => {
    const folder = fakeFolder({ files: { 'a.ts': 'a\n' } });
    const a = statusFile('a.ts', 'a\nb\n');
    const { model, stale } = rig([a], folder);
    assert.equal((await model.statuses('s1')).get('a.ts')?.state, 'modified');
    model.workspaceChanged(['other.ts']);
    assert.deepEqual(stale, [], 'a file no session planned changes nothing');
    folder.files.set('a.ts', bytes('a\nb\n'));
    model.workspaceChanged(['A.ts']);
    assert.deepEqual(stale, ['s1']);
    assert.equal((await model.statuses('s1')).get('a.ts')?.state, 'identical');
    assert.equal(a.reads(), 1, 'the agent’s bytes came from the cache');
    folder.files.delete('a.ts');
    model.workspaceChanged();
    assert.deepEqual((await model.statuses('s1')).get('a.ts'), { state: 'new', added: 2, removed: 0 });
  });

  it('computes again when the session’s files change, and fetches the new version', async () => {
    const folder = fakeFolder({ files: { 'a.ts': 'a\n' } });
    const { model, state, stale } = rig([statusFile('a.ts', 'a\n')], folder);
    assert.equal((await model.statuses('s1')).get('a.ts')?.state, 'identical');
    const v2 = statusFile('a.ts', 'a\nz\n', 'k1@2');
    state.files = [v2];
    assert.equal(
      (await model.statuses('s1')).get('a.ts')?.state,
      'modified',
      'a new version is seen unasked',
    );
    model.sessionChanged('s1');
    model.sessionChanged('unknown');
    assert.deepEqual(stale, ['s1']);
    assert.equal(v2.reads(), 1);
  });

  it('marks a computation that a change overtook as stale', async () => {
    const folder = fakeFolder({ files: { 'a.ts': 'a\n' } });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: StatusFile = { path: 'a.ts', version: 'v', read: () => gate.then(() => bytes('a\nb\n')) };
    const { model } = rig([slow], folder);
    const first = model.statuses('s1');
    await Promise.resolve();
    folder.files.set('a.ts', bytes('a\nb\n'));
    model.workspaceChanged();
    release();
    await first;
    assert.equal((await model.statuses('s1')).get('a.ts')?.state, 'identical');
  });

  it('has no states without a folder, and none for files beyond the limit', async () => {
    const { model, state } = rig([statusFile('a.ts', 'a\n'), statusFile('b.ts', 'b\n')], fakeFolder());
    state.folder = undefined;
    assert.equal((await model.statuses('s1')).size, 0);
    const stale: string[] = [];
    model.onDidChange((id) => stale.push(id));
    model.workspaceChanged(['a.ts']);
    assert.deepEqual(stale, [], 'nothing planned, nothing stale');
    state.folder = fakeFolder();
    model.workspaceChanged();
    assert.deepEqual(stale, ['s1'], 'a folder opened: asked again');
    assert.equal((await model.statuses('s1')).get('a.ts')?.state, 'new');
    const limited = new FileStatusModel({
      maxFiles: 1,
      load: async () => ({ files: state.files, folder: fakeFolder(), base: basesOf({}) }),
    });
    const s = await limited.statuses('s1');
    assert.deepEqual([...s.keys()], ['a.ts']);
  });

  it('writes nothing: it only reads the folder', async () => {
    const { folder, used } = watched(fakeFolder({ files: { 'a.ts': 'a\n', 'b.ts': 'b\n' } }));
    const { model } = rig(
      [statusFile('a.ts', 'a\nb\n'), statusFile('b.ts', null), statusFile('c.ts', 'c\n')],
      folder,
    );
    await model.statuses('s1');
    assert.deepEqual(
      [...used].filter(
        (p) => !['name', 'root', 'readFile', 'isDirty', 'realPath', 'caseInsensitive'].includes(p),
      ),
      [],
    );
    assert.deepEqual(
      [...(folder as FakeFolder).files].map(([p, b]) => [p, new TextDecoder().decode(b)]),
      [
        ['a.ts', 'a\n'],
        ['b.ts', 'b\n'],
      ],
    );
  });
});
