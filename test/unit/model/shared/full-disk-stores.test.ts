import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LamRunRequest } from '../../../../src/core/client/types';
import type { Logger } from '../../../../src/core/shared/log';
import { createTranscript } from '../../../../src/core/transcript/reducer';
import { BaseStore } from '../../../../src/model/apply/bases';
import { TranscriptCache } from '../../../../src/model/session/transcript-cache';
import { WebTaskHistory } from '../../../../src/model/webtasks/web-task-history';

/**
 * Den's own stores on a full disk, for real: each store's folder is on a 1 MB tmpfs that is filled
 * to the last byte after a first write went through. Mounting needs root (the test machines run as
 * root); where `mount` is refused the test fails with that reason, it is never skipped.
 */
describe('Den’s stores on a full disk', function () {
  let top: string;
  let disk: string;
  let warnings: string[];
  const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };

  beforeEach(() => {
    warnings = [];
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'den-full-disk-'));
    disk = path.join(top, 'disk');
    fs.mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (err) {
      assert.fail(`this test needs to mount a tmpfs (run as root): ${String(err)}`);
    }
  });

  afterEach(() => {
    execFileSync('umount', [disk]);
    fs.rmSync(top, { recursive: true, force: true });
  });

  /** Fills the tmpfs to its last byte. */
  function fill(): void {
    const fd = fs.openSync(path.join(disk, '.filler'), 'w');
    try {
      for (let i = 0; i < 1024; i++) fs.writeSync(fd, Buffer.alloc(4096, 0x61));
      assert.fail('the 1 MB tmpfs took 4 MB');
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC', String(err));
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Every file under `dir` whose name marks a temporary file. */
  function leftovers(dir: string): string[] {
    return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.tmp$/.test(f));
  }

  it('bases: a base that does not fit is not recorded, the earlier ones stay whole, no temporary file is left', async () => {
    const dir = path.join(disk, 'bases');
    const store = new BaseStore({ dir, logger });
    await store.record('s1', 'src/a.ts', Buffer.from('first\n'));
    fill();
    await store.record('s1', 'src/b.ts', Buffer.alloc(64 * 1024, 0x62));
    const a = await store.get('s1', 'src/a.ts');
    assert.equal(Buffer.from(a?.content ?? []).toString(), 'first\n');
    assert.deepEqual(leftovers(dir), []);
    assert.ok(
      warnings.some((w) => /ENOSPC/.test(w)),
      `no warning names ENOSPC: ${warnings.join(' | ')}`,
    );
  });

  it('transcript cache: a write that does not fit keeps the cached copy before it whole', async () => {
    const dir = path.join(disk, 'transcripts');
    const cache = new TranscriptCache({ dir, logger });
    await cache.write('s1', createTranscript('s1', 'before'));
    fill();
    await cache.write('s1', createTranscript('s1', `after ${'x'.repeat(64 * 1024)}`));
    assert.equal((await cache.read('s1'))?.title, 'before');
    assert.deepEqual(leftovers(dir), []);
    assert.ok(
      warnings.some((w) => /could not write .*ENOSPC/.test(w)),
      `no warning names ENOSPC: ${warnings.join(' | ')}`,
    );
    await cache.dispose();
  });

  it('web task history: a run that does not fit is refused in words, the runs before it stay', async () => {
    const dir = path.join(disk, 'web-tasks');
    let ids = 0;
    const history = new WebTaskHistory({ dir, logger, newId: () => `run-${++ids}` });
    const request: LamRunRequest = {
      query: 'find shoes',
      appUrl: 'https://shop.example.com',
      schema: { t: 't' },
    };
    await history.add(request);
    fill();
    await assert.rejects(
      history.add({ ...request, query: 'x'.repeat(64 * 1024) }),
      /^Error: Could not write the web task history: the disk is full \(ENOSPC\)\. Free some space on that disk, then try again\.$/,
    );
    assert.deepEqual(
      (await history.list()).map((r) => r.id),
      ['run-1'],
    );
    assert.deepEqual(leftovers(dir), []);
  });
});
