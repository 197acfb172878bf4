import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import { contentHash } from '../../../../src/core/merge/hash';
import { planApply, stillAsPlanned, writesOf } from '../../../../src/model/apply/apply-plan';
import { agentFile, basesOf, bytes, fakeFolder, ROOT } from './apply-rig';

describe('planApply: paths, bounds and failures', () => {
  const refusedPaths: [string, RegExp][] = [
    ['../x', /goes up out of the folder/],
    ['src/../../x', /goes up out of the folder/],
    ['/etc/passwd', /absolute and outside the sandbox folder/],
    ['C:\\x', /Windows drive/],
    ['\\\\server\\share\\x', /network share/],
    ['src\u2024\u2024/x', /looks like "\."/],
    ['\uff0e\uff0e/x', /looks like "\."/],
    ['src/\u2025/x', /looks like "\."/],
    ['.git/config', /\.git folder/],
    ['', /names no file/],
  ];
  for (const [path, why] of refusedPaths) {
    it(`refuses ${JSON.stringify(path)} without reading anything`, async () => {
      const folder = fakeFolder({ files: { x: 'a\n' } });
      const agent = agentFile(path, 'evil\n');
      const plan = await planApply({ files: [agent.file], folder, base: basesOf({}) });
      const [e] = plan.entries;
      assert.equal(e.action, 'refused');
      assert.equal(e.relPath, undefined);
      assert.ok(e.reason?.startsWith(`Refused the path "${path}"`), e.reason);
      assert.match(e.reason ?? '', why);
      assert.equal(e.newContent, undefined);
      assert.equal(agent.readCount(), 0);
      assert.deepEqual(folder.reads, []);
      assert.equal(plan.summary.refused, 1);
      assert.deepEqual(writesOf(plan, true), []);
    });
  }

  it('refuses a path that leads out of the folder through a link', async () => {
    const folder = fakeFolder({ files: { 'src/a.ts': 'a\n' }, links: { [`${ROOT}/out`]: '/etc' } });
    const escape = agentFile('out/passwd', 'root::0:0\n');
    const fine = agentFile('src/a.ts', 'b\n');
    const plan = await planApply({ files: [escape.file, fine.file], folder, base: basesOf({}) });
    assert.equal(plan.entries[0].action, 'refused');
    assert.equal(plan.entries[0].relPath, 'out/passwd');
    assert.match(plan.entries[0].reason ?? '', /^Refused the path "out\/passwd": .*leads outside the folder/);
    assert.equal(escape.readCount(), 0);
    assert.deepEqual(folder.reads, ['src/a.ts']);
    assert.equal(plan.entries[1].action, 'askOverwrite');
  });

  it('follows a link that stays inside the folder', async () => {
    const folder = fakeFolder({ files: { 'src/a.ts': 'a\n' }, links: { [`${ROOT}/lib`]: `${ROOT}/src` } });
    const plan = await planApply({ files: [agentFile('lib/b.ts', 'b\n').file], folder, base: basesOf({}) });
    assert.equal(plan.entries[0].action, 'create');
  });

  it('refuses every entry that names the same workspace file', async () => {
    const files = [
      'src/a.ts',
      '/workspace/src/a.ts',
      'README.md',
      'readme.md',
      'caf\u00e9',
      'cafe\u0301',
      'ok',
    ];
    const plan = await planApply({
      files: files.map((p) => agentFile(p, 'x\n').file),
      folder: fakeFolder(),
      base: basesOf({}),
    });
    assert.deepEqual(
      plan.entries.map((e) => e.action),
      ['refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'create'],
    );
    assert.equal(
      plan.entries[0].reason,
      'Refused the path "src/a.ts": it names the same workspace file as "/workspace/src/a.ts".',
    );
    assert.match(plan.entries[3].reason ?? '', /same workspace file as "README\.md"/);
  });

  it('does not read a file whose announced size is over the limit', async () => {
    const big = agentFile('big.bin', 'x', { size: 2048 });
    const folder = fakeFolder();
    const plan = await planApply({
      files: [big.file],
      folder,
      base: basesOf({}),
      maxFileBytes: 1024,
    });
    assert.equal(plan.entries[0].action, 'refused');
    assert.equal(
      plan.entries[0].reason,
      "Refused big.bin: the agent's version is 2.0 KB, more than the 1.0 KB Den applies.",
    );
    assert.equal(big.readCount(), 0);
    assert.deepEqual(folder.reads, []);
  });

  it('refuses a file over the limit once read, when its size was not announced', async () => {
    const plan = await planApply({
      files: [agentFile('a.txt', 'x'.repeat(11)).file],
      folder: fakeFolder(),
      base: basesOf({}),
      maxFileBytes: 10,
    });
    assert.equal(plan.entries[0].action, 'refused');
    assert.match(plan.entries[0].reason ?? '', /11 B, more than the 10 B/);
  });

  it('holds at most maxTotalBytes of contents', async () => {
    const plan = await planApply({
      files: ['a', 'b', 'c'].map((p) => agentFile(p, '12345\n').file),
      folder: fakeFolder(),
      base: basesOf({}),
      maxTotalBytes: 14,
    });
    assert.deepEqual(
      plan.entries.map((e) => e.action),
      ['create', 'create', 'refused'],
    );
    assert.match(plan.entries[2].reason ?? '', /^Left out c: .*apply it on its own\.$/);
  });

  it('plans at most maxFiles files and reads none of the rest', async () => {
    const files = ['a', 'b', 'c'].map((p) => agentFile(p, 'x\n'));
    const plan = await planApply({
      files: files.map((f) => f.file),
      folder: fakeFolder(),
      base: basesOf({}),
      maxFiles: 2,
    });
    assert.equal(plan.entries.length, 2);
    assert.equal(plan.leftOut, 1);
    assert.equal(plan.maxFiles, 2);
    assert.equal(files[2].readCount(), 0);
  });

  it('says when a version cannot be read, and never takes a failed read for a deletion', async () => {
    const folder = fakeFolder({ files: { a: 'a\n', b: 'b\n' }, unreadable: ['b'] });
    const plan = await planApply({
      files: [agentFile('a', 'x\n', { fails: true }).file, agentFile('b', 'y\n').file],
      folder,
      base: basesOf({ a: 'a\n' }),
    });
    assert.deepEqual(
      plan.entries.map((e) => [e.action, e.reason]),
      [
        ['failed', "Could not get the agent's version of a (the service answered 404)."],
        ['failed', 'Could not read b in the workspace (EACCES: permission denied).'],
      ],
    );
    assert.deepEqual([plan.summary.failed, plan.summary.changed, plan.summary.deleted], [2, 0, 0]);
  });

  it('takes a base that cannot be looked up for none', async () => {
    const plan = await planApply({
      files: [agentFile('a', 'y\n').file],
      folder: fakeFolder({ files: { a: 'x\n' } }),
      base: () => Promise.reject(new Error('disk full')),
    });
    assert.equal(plan.entries[0].action, 'askOverwrite');
  });

  it('is cancelled between files', async () => {
    const controller = new AbortController();
    const first = agentFile('a', 'x\n');
    const second = agentFile('b', 'x\n');
    const folder = fakeFolder();
    const plan = planApply({
      files: [first.file, second.file],
      folder: { ...folder, readFile: async (rel) => (controller.abort(), folder.readFile(rel)) },
      base: basesOf({}),
      signal: controller.signal,
    });
    await assert.rejects(plan, (err: unknown) => err instanceof DenError && err.code === 'aborted');
    assert.equal(second.readCount(), 0);
  });

  it('records what each write was planned against', async () => {
    const plan = await planApply({
      files: [agentFile('new', 'x\n').file, agentFile('old', 'y\n').file, agentFile('gone', null).file],
      folder: fakeFolder({ files: { old: 'x\n', gone: 'z\n' } }),
      base: basesOf({ old: 'x\n' }),
    });
    const [created, changed, deleted] = plan.entries;
    assert.equal(created.expected, null);
    assert.equal(changed.expected, contentHash(bytes('x\n')));
    assert.ok(stillAsPlanned(created, undefined));
    assert.ok(!stillAsPlanned(created, bytes('')));
    assert.ok(stillAsPlanned(changed, bytes('x\n')));
    assert.ok(!stillAsPlanned(changed, bytes('x\r\n')));
    assert.ok(stillAsPlanned(deleted, bytes('z\n')));
    assert.ok(!stillAsPlanned(deleted, undefined));
  });

  it('lists the writes that need no question apart from those that do', async () => {
    const plan = await planApply({
      files: [agentFile('new', 'x\n').file, agentFile('old', 'y\n').file, agentFile('gone', null).file],
      folder: fakeFolder({ files: { old: 'x\n', gone: 'z\n' } }),
      base: basesOf({}),
    });
    assert.deepEqual(
      writesOf(plan, false).map((e) => e.relPath),
      ['new'],
    );
    assert.deepEqual(
      writesOf(plan, true).map((e) => e.relPath),
      ['new', 'old', 'gone'],
    );
  });
});
