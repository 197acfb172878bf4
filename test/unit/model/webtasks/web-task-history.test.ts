import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LamRunRequest } from '../../../../src/core/client/types';
import type { Logger } from '../../../../src/core/shared/log';
import { WebTaskHistory, type WebTaskHistoryOptions } from '../../../../src/model/webtasks/web-task-history';

const PASSCODE = 'pass-9f3kq2-SECRET';

const request = (query: string, over: Partial<LamRunRequest> = {}): LamRunRequest => ({
  query,
  appUrl: 'https://shop.example.com',
  schema: { title: 'title', seller: { name: 'seller' } },
  maxCount: 5,
  mode: 'deepsearch',
  servicePasscode: PASSCODE,
  chatHistory: [{ role: 'user', content: 'earlier' }],
  advanced: { blockAds: true, solveCaptchas: false, proxy: { country: 'NO', zip: 150 } },
  ...over,
});

const records = (n: number, pad = 0) =>
  Array.from({ length: n }, (_x, i) => ({ title: `t${i}${'x'.repeat(pad)}`, seller: { name: 's' } }));

describe('webtask: the history of runs on disk', () => {
  let dir: string;
  let clock = 0;
  let ids = 0;
  let warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
  const store = (over: Partial<WebTaskHistoryOptions> = {}) =>
    new WebTaskHistory({ dir, now: () => ++clock, newId: () => `run-${++ids}`, logger, ...over });
  const runFiles = (): string[] => {
    const d = path.join(dir, 'runs');
    return fs.existsSync(d) ? fs.readdirSync(d).sort() : [];
  };
  /** Every byte under the folder, as text. */
  const allBytes = (): string => {
    const out: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push(fs.readFileSync(p, 'latin1'));
      }
    };
    walk(dir);
    return out.join('\n');
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-webtasks-'));
    warnings = [];
    ids = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('adds a run with its inputs, updates it with an outcome and results, and reads it back in a new instance', async () => {
    const h = store();
    const run = await h.add({ ...request('find shoes'), stream: true });
    assert.equal(run.status, 'RUNNING');
    assert.deepEqual(run.inputs, {
      query: 'find shoes',
      appUrl: 'https://shop.example.com',
      schema: { title: 'title', seller: { name: 'seller' } },
      maxCount: 5,
      mode: 'deepsearch',
      stream: true,
      advanced: { blockAds: true, solveCaptchas: false, proxy: { country: 'NO', zip: 150 } },
    });
    const done = await h.update(run.id, {
      status: 'DONE',
      message: 'Found 3',
      finishedAt: 99,
      problems: { missing: 1, null: 0, empty: 2, wrongShape: 0 },
      sessionId: 'sess-1',
      data: records(3),
    });
    assert.equal(done?.rowCount, 3);
    assert.equal(done?.status, 'DONE');
    assert.ok((done?.dataBytes ?? 0) > 0);
    const again = store();
    const [listed] = await again.list();
    assert.deepEqual(listed, done);
    assert.deepEqual(await again.data(run.id), records(3));
    assert.deepEqual(runFiles(), ['run-1.data.json', 'run-1.run.json']);
  });

  it('never writes the passcode (nor the chat history) anywhere in the folder', async () => {
    const h = store();
    const run = await h.add(request('with passcode'));
    await h.update(run.id, { status: 'DONE', data: records(2) });
    await h.add(request('second', { advanced: { proxy: { city: 'Oslo' } } }));
    const bytes = allBytes();
    assert.ok(bytes.includes('with passcode'), 'the control text is stored');
    assert.ok(!bytes.includes(PASSCODE));
    assert.ok(!bytes.includes('servicePasscode') && !bytes.includes('service_passcode'));
    assert.ok(!bytes.includes('earlier'));
  });

  it('lists newest first and gets one run', async () => {
    const h = store();
    await h.add(request('a'));
    const b = await h.add(request('b'));
    assert.deepEqual(
      (await h.list()).map((r) => r.inputs.query),
      ['b', 'a'],
    );
    assert.equal((await h.get(b.id))?.inputs.query, 'b');
    assert.equal(await h.get('nope'), undefined);
    assert.equal(await h.update('nope', { status: 'DONE' }), undefined);
  });

  it('removes a run with its files', async () => {
    const h = store();
    const a = await h.add(request('a'));
    await h.update(a.id, { data: records(1) });
    assert.equal(await h.remove(a.id), true);
    assert.equal(await h.remove(a.id), false);
    assert.deepEqual(await h.list(), []);
    assert.deepEqual(runFiles(), []);
  });

  it('evicts the oldest runs beyond the run count, with their result files', async () => {
    const h = store({ maxRuns: 3 });
    for (const q of ['a', 'b', 'c', 'd', 'e']) {
      const r = await h.add(request(q));
      await h.update(r.id, { status: 'DONE', data: records(1) });
    }
    assert.deepEqual(
      (await h.list()).map((r) => r.inputs.query),
      ['e', 'd', 'c'],
    );
    assert.deepEqual(runFiles(), [
      'run-3.data.json',
      'run-3.run.json',
      'run-4.data.json',
      'run-4.run.json',
      'run-5.data.json',
      'run-5.run.json',
    ]);
  });

  it('evicts the oldest runs beyond the total bytes, never the run being written', async () => {
    const h = store({ maxBytes: 6_000 });
    for (const q of ['a', 'b', 'c']) {
      const r = await h.add(request(q));
      await h.update(r.id, { status: 'DONE', data: records(10, 150) });
    }
    const kept = await h.list();
    assert.ok(kept.length < 3 && kept.length >= 1, String(kept.length));
    assert.equal(kept[0].inputs.query, 'c');
    const total = await h.totalBytes();
    assert.ok(total <= 6_000, String(total));
    const onDisk = runFiles().reduce((n, f) => n + fs.statSync(path.join(dir, 'runs', f)).size, 0);
    assert.equal(onDisk, total);
  });

  it('does not keep results bigger than the whole budget, and says so', async () => {
    const h = store({ maxBytes: 2_000 });
    const r = await h.add(request('big'));
    const u = await h.update(r.id, { status: 'DONE', data: records(50, 100) });
    assert.equal(u?.rowCount, 50);
    assert.equal(u?.dataBytes, 0);
    assert.equal(u?.dataDropped, true);
    assert.equal(await h.data(r.id), undefined);
    assert.match(warnings.join('\n'), /exceed the history's limit/);
  });

  it('rebuilds a damaged index from the run files, and drops files of no run', async () => {
    const h = store();
    const a = await h.add(request('a'));
    await h.update(a.id, { status: 'DONE', data: records(2) });
    const b = await h.add(request('b'));
    fs.writeFileSync(path.join(dir, 'index.json'), '{"version":1,"runs":[{"id":');
    fs.writeFileSync(path.join(dir, 'runs', 'ghost.data.json'), '[]');
    fs.writeFileSync(path.join(dir, 'runs', 'bad.run.json'), 'not json');
    const again = store();
    assert.deepEqual(
      (await again.list()).map((r) => r.id),
      [b.id, a.id],
    );
    assert.deepEqual(await again.data(a.id), records(2));
    assert.match(warnings.join('\n'), /damaged; rebuilding/);
    assert.deepEqual(runFiles(), ['run-1.data.json', 'run-1.run.json', 'run-2.run.json']);
    assert.doesNotThrow(() => JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')));
  });

  it('rebuilds a missing index from the run files', async () => {
    const h = store();
    await h.add(request('a'));
    fs.rmSync(path.join(dir, 'index.json'));
    assert.deepEqual(
      (await store().list()).map((r) => r.inputs.query),
      ['a'],
    );
  });

  it('reads a run whose result file went missing as a run without results', async () => {
    const h = store();
    const a = await h.add(request('a'));
    await h.update(a.id, { data: records(1) });
    fs.rmSync(path.join(dir, 'runs', `${a.id}.data.json`));
    assert.equal(await h.data(a.id), undefined);
    assert.equal((await h.get(a.id))?.dataBytes, 0);
  });

  it('runs concurrent adds and updates in call order without losing one', async () => {
    const h = store({ maxRuns: 100 });
    const added = await Promise.all(Array.from({ length: 20 }, (_x, i) => h.add(request(`q${i}`))));
    await Promise.all(added.map((r, i) => h.update(r.id, { status: 'DONE', data: records(i % 3) })));
    const list = await h.list();
    assert.equal(list.length, 20);
    assert.deepEqual(
      list.map((r) => r.inputs.query),
      Array.from({ length: 20 }, (_x, i) => `q${19 - i}`),
    );
    assert.deepEqual(
      list.map((r) => r.rowCount),
      Array.from({ length: 20 }, (_x, i) => (19 - i) % 3),
    );
    assert.equal(new Set(list.map((r) => r.id)).size, 20);
  });

  it('keeps working after a failed call', async () => {
    const h = store({ newId: () => 'bad id!' });
    await assert.rejects(h.add(request('a')), /unusable run id/);
    assert.deepEqual(await h.list(), []);
  });
});
