import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentHash } from '../../../../src/core/merge/hash';
import type { Logger } from '../../../../src/core/shared/log';
import { BaseStore, sentBases } from '../../../../src/model/apply/bases';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
/** `n` bytes of one repeated letter: distinct contents of known sizes. */
const sized = (letter: string, n: number): Uint8Array => text(letter.repeat(n));

describe('BaseStore', () => {
  let dir: string;
  const blobs = (): string[] => {
    const d = path.join(dir, 'blobs');
    return fs.existsSync(d) ? fs.readdirSync(d).sort() : [];
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-bases-'));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives back what it recorded, by session and path, also to a second instance', async () => {
    const store = new BaseStore({ dir });
    const content = text('export const a = 1;\n');
    assert.deepEqual(await store.record('s1', 'src/a.ts', content), {
      hash: contentHash(content),
      size: content.byteLength,
      stored: true,
    });
    assert.deepEqual(await store.get('s1', 'src/a.ts'), {
      hash: contentHash(content),
      size: content.byteLength,
      content: Buffer.from(content),
    });
    assert.equal(await store.get('s1', 'src/b.ts'), undefined);
    assert.equal(await store.get('s2', 'src/a.ts'), undefined);
    const again = await new BaseStore({ dir }).get('s1', 'src/a.ts');
    assert.equal(Buffer.from(again!.content!).toString(), 'export const a = 1;\n');
    assert.deepEqual(blobs(), [contentHash(content)]);
  });

  it('replaces a record, and removes the content nothing stores any more', async () => {
    const store = new BaseStore({ dir });
    await store.record('s1', 'a.ts', text('one'));
    await store.record('s1', 'a.ts', text('two'));
    assert.equal(Buffer.from((await store.get('s1', 'a.ts'))!.content!).toString(), 'two');
    assert.deepEqual(blobs(), [contentHash('two')]);
  });

  it('stores content two sessions share once, and keeps it until both forget it', async () => {
    const store = new BaseStore({ dir });
    const shared = text('same in both\n');
    await store.record('s1', 'a.ts', shared);
    await store.record('s2', 'lib/a.ts', shared);
    await store.record('s2', 'b.ts', text('only s2'));
    assert.deepEqual(blobs(), [contentHash(shared), contentHash('only s2')].sort());
    assert.equal(await store.totalBytes(), shared.byteLength + 7);
    await store.forget('s2');
    assert.equal(await store.get('s2', 'lib/a.ts'), undefined);
    assert.deepEqual(blobs(), [contentHash(shared)]);
    assert.ok((await store.get('s1', 'a.ts'))?.content);
    await store.forget('s1');
    assert.deepEqual(blobs(), []);
    assert.equal(await store.totalBytes(), 0);
  });

  it('records content over the per-file bound by hash only', async () => {
    const store = new BaseStore({ dir, maxFileBytes: 10 });
    const big = sized('x', 11);
    assert.deepEqual(await store.record('s1', 'big.bin', big), {
      hash: contentHash(big),
      size: 11,
      stored: false,
    });
    assert.deepEqual(await store.get('s1', 'big.bin'), { hash: contentHash(big), size: 11 });
    assert.equal((await store.record('s1', 'ten.txt', sized('y', 10))).stored, true);
    assert.deepEqual(blobs(), [contentHash(sized('y', 10))]);
  });

  it('evicts the least recently used contents above the total bound, keeping their hashes', async () => {
    const store = new BaseStore({ dir, maxBytes: 30, maxFileBytes: 10 });
    await store.record('s1', 'a', sized('a', 10));
    await store.record('s1', 'b', sized('b', 10));
    await store.record('s1', 'c', sized('c', 10));
    // Reading a makes it the most recently used: b is now the oldest.
    assert.ok((await store.get('s1', 'a'))?.content);
    await store.record('s1', 'd', sized('d', 10));
    assert.deepEqual(await store.get('s1', 'b'), { hash: contentHash(sized('b', 10)), size: 10 });
    for (const p of ['a', 'c', 'd']) assert.ok((await store.get('s1', p))?.content, p);
    assert.equal(await store.totalBytes(), 30);
    assert.equal(blobs().length, 3);
    // The reads just made went a, c, d: a is the oldest now, and goes when e comes.
    await store.record('s2', 'e', sized('e', 10));
    assert.equal((await store.get('s1', 'a'))?.content, undefined);
    assert.ok((await store.get('s1', 'c'))?.content);
    assert.equal(await store.totalBytes(), 30);
  });

  it('drops the least recently used records above the record bound', async () => {
    const store = new BaseStore({ dir, maxEntries: 2 });
    await store.record('s1', 'a', text('a'));
    await store.record('s1', 'b', text('b'));
    await store.get('s1', 'a');
    await store.record('s1', 'c', text('c'));
    assert.equal(await store.get('s1', 'b'), undefined);
    assert.ok(await store.get('s1', 'a'));
    assert.ok(await store.get('s1', 'c'));
    assert.deepEqual(blobs(), [contentHash('a'), contentHash('c')].sort());
  });

  it('answers hash only when a stored content is missing or damaged', async () => {
    const store = new BaseStore({ dir });
    await store.record('s1', 'a', text('alpha'));
    await store.record('s1', 'b', text('beta'));
    fs.rmSync(path.join(dir, 'blobs', contentHash('alpha')));
    fs.writeFileSync(path.join(dir, 'blobs', contentHash('beta')), 'tampered');
    assert.deepEqual(await store.get('s1', 'a'), { hash: contentHash('alpha'), size: 5 });
    assert.deepEqual(await store.get('s1', 'b'), { hash: contentHash('beta'), size: 4 });
    assert.deepEqual(blobs(), []);
    // Recording the same content again stores it again.
    assert.equal((await store.record('s1', 'b', text('beta'))).stored, true);
    assert.ok((await store.get('s1', 'b'))?.content);
  });

  const corrupt: [string, string][] = [
    ['not JSON', '{"version":1,'],
    ['another version', JSON.stringify({ version: 2, clock: 0, entries: [] })],
    [
      'a hash that is a path',
      JSON.stringify({
        version: 1,
        clock: 1,
        entries: [{ session: 's', path: 'p', hash: '../../etc/passwd', size: 1, stored: true, used: 1 }],
      }),
    ],
  ];
  for (const [what, body] of corrupt) {
    it(`recovers from an index with ${what}: starts empty and removes old unnamed contents`, async () => {
      const warnings: string[] = [];
      const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
      await new BaseStore({ dir }).record('s1', 'a', text('old'));
      const old = path.join(dir, 'blobs', contentHash('old'));
      const longAgo = new Date(Date.now() - 3_600_000);
      fs.utimesSync(old, longAgo, longAgo);
      fs.writeFileSync(path.join(dir, 'index.json'), body);
      const store = new BaseStore({ dir, logger });
      assert.equal(await store.get('s1', 'a'), undefined);
      assert.match(warnings.join('\n'), /index is unreadable/);
      assert.deepEqual(blobs(), []);
      await store.record('s1', 'a', text('new'));
      assert.ok((await store.get('s1', 'a'))?.content);
      assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')).version, 1);
    });
  }

  it('leaves a recent unnamed content alone (another window may be recording it)', async () => {
    fs.mkdirSync(path.join(dir, 'blobs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'blobs', contentHash('fresh')), 'fresh');
    await new BaseStore({ dir }).record('s1', 'a', text('a'));
    assert.deepEqual(blobs(), [contentHash('a'), contentHash('fresh')].sort());
  });

  it('keeps odd session ids and paths apart and inside its folder', async () => {
    const store = new BaseStore({ dir });
    const keys: [string, string][] = [
      ['../escape', '../../x'],
      ['__proto__', 'constructor'],
      ['s', 'a","b'],
      ['s","a', 'b'],
    ];
    for (const [s, p] of keys) await store.record(s, p, text(`${s}|${p}`));
    for (const [s, p] of keys) {
      assert.equal(Buffer.from((await store.get(s, p))!.content!).toString(), `${s}|${p}`);
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), ['blobs', 'index.json']);
  });

  it('never rejects: a failure is logged and answered with nothing stored', async () => {
    const file = path.join(dir, 'not-a-folder');
    fs.writeFileSync(file, '');
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
    const store = new BaseStore({ dir: file, logger });
    assert.deepEqual(await store.record('s1', 'a', text('a')), {
      hash: contentHash('a'),
      size: 1,
      stored: false,
    });
    assert.equal(await store.get('s1', 'a'), undefined);
    await store.forget('s1');
    assert.ok(warnings.length > 0);
  });

  it('runs concurrent calls in order, losing none', async () => {
    const store = new BaseStore({ dir });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.record('s1', `f${i}`, text(`content ${i}`))),
    );
    for (let i = 0; i < 20; i++) assert.ok((await store.get('s1', `f${i}`))?.content, `f${i}`);
    assert.equal(blobs().filter((n) => n.endsWith('.tmp')).length, 0);
  });
});

describe('sentBases: what a turn records of the workspace files it sends', () => {
  const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
  const read = async (bases: ReturnType<typeof sentBases>) =>
    Promise.all(bases.map(async (b) => [b.path, new TextDecoder().decode(await b.read())]));

  it('keeps one base a path: the whole file over a selection of it, a lone selection as it was sent', async () => {
    const bases = sentBases([
      { path: 'src/a.ts', bytes: enc('line 2'), part: true },
      { path: 'src/a.ts', bytes: enc('whole\nline 2\n'), part: false },
      { path: 'src/b.ts', bytes: enc('  sel'), part: true },
    ]);
    assert.deepEqual(await read(bases), [
      ['src/a.ts', 'whole\nline 2\n'],
      ['src/b.ts', '  sel'],
    ]);
    assert.equal(bases[0].hash, contentHash('whole\nline 2\n'));
  });

  it('records nothing for a file sent as several selections (which of them did the agent write back?)', () => {
    const bases = sentBases([
      { path: 'src/a.ts', bytes: enc('one'), part: true },
      { path: 'src/a.ts', bytes: enc('two'), part: true },
    ]);
    assert.deepEqual(bases, []);
  });
});
