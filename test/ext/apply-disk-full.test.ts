import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../src/editor/apply/apply-command';
import { root, useApply } from './apply-helpers';

/**
 * A full disk while Apply writes, for real: `test/` of the workspace is a 64 KB tmpfs filled to the
 * last byte, so VS Code's own file service gets ENOSPC writing the turn's second file (its first,
 * `src/…`, goes to the ordinary disk). Mounting needs root (the test machines run as root); a
 * machine where `mount` is refused fails this test with that reason, it is never skipped.
 */
describe('Apply on a full disk', function () {
  this.timeout(60_000);
  const fx = useApply();
  let mounted: string | undefined;

  afterEach(() => {
    if (mounted) execFileSync('umount', [mounted]);
    if (mounted) fs.rmSync(mounted, { recursive: true, force: true });
    mounted = undefined;
  });

  /** Mounts a tmpfs at `<workspace>/<rel>` with `options`. */
  function mountAt(rel: string, options: string): string {
    const dir = path.join(root(), rel);
    fs.mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      assert.fail(`this test needs to mount a tmpfs (run as root): ${String(err)}`);
    }
    mounted = dir;
    return dir;
  }

  /** Mounts a full 64 KB tmpfs at `<workspace>/<rel>`. */
  function fullDiskAt(rel: string): string {
    const dir = mountAt(rel, 'size=64k');
    const filler = path.join(dir, '.filler');
    const block = Buffer.alloc(4096, 0x61);
    const fd = fs.openSync(filler, 'w');
    try {
      for (let i = 0; i < 64; i++) fs.writeSync(fd, block);
      assert.fail('the 64 KB tmpfs took 256 KB');
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC', String(err));
    } finally {
      fs.closeSync(fd);
    }
    return dir;
  }

  it('writes nothing, not even the files that fit, and says which file, that the disk is full and what to do', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add delta parser', 'add-delta-parser');
    const full = fullDiskAt('test');
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    const texts = [...answers.asked.filter((a) => !a.modal).map((a) => a.text), ...fx.den.messages.texts()];
    const said = texts.join(' | ');
    const seen = JSON.stringify({ result: result?.message, full: fs.readdirSync(full), said });
    assert.equal(result?.written.length, 0, seen);
    assert.ok(!fs.existsSync(path.join(root(), 'src/add-delta-parser.ts')), `src/… was written: ${seen}`);
    assert.deepEqual(fs.readdirSync(full), ['.filler'], `something was left in the full folder: ${seen}`);
    assert.match(said, /Could not write test\/add-delta-parser\.test\.ts: the disk is full \(ENOSPC\)/);
    assert.match(said, /Nothing was applied/);
    assert.doesNotMatch(said, /Den: [^|]*Den could not/, 'a message says Den twice');
    assert.match(said, /[Ff]ree some space/);
  });

  it('undoes what VS Code wrote when the disk fills during the edit, and says which file and why', async () => {
    const { sessionId, agentMessageId } = await fx.seeded('Add epsilon parser', 'add-epsilon-parser');
    // Room in bytes (the check before writing passes) but no inode left for a new file: the
    // kernel answers ENOSPC in the middle of VS Code's edit, after it created src/….
    const full = mountAt('test', 'size=1m,nr_inodes=2');
    for (let i = 0; ; i++) {
      try {
        fs.writeFileSync(path.join(full, `.filler-${i}`), 'x');
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC', String(err));
        break;
      }
      assert.ok(i < 8, 'the tmpfs took more files than it has inodes');
    }
    const fillers = fs.readdirSync(full).sort();
    const answers = fx.answer((a) => a.buttons.find((b) => b === 'Apply'));

    const result = await vscode.commands.executeCommand<ApplyResult>(
      'den.applyTurn',
      sessionId,
      agentMessageId,
    );

    const texts = [...answers.asked.filter((a) => !a.modal).map((a) => a.text), ...fx.den.messages.texts()];
    const said = texts.join(' | ');
    const seen = JSON.stringify({ result: result?.message, full: fs.readdirSync(full), said });
    assert.equal(result?.written.length, 0, seen);
    assert.ok(!fs.existsSync(path.join(root(), 'src/add-epsilon-parser.ts')), `src/… was left: ${seen}`);
    assert.deepEqual(fs.readdirSync(full).sort(), fillers, `something was left in the full folder: ${seen}`);
    assert.match(
      said,
      /Nothing was applied\. Could not write test\/add-epsilon-parser\.test\.ts: the disk is full \(ENOSPC\)/,
    );
    assert.match(said, /Free some space/);
  });
});
