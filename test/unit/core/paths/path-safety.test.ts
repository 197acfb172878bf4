import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeRelativePath, type PathRefusal } from '../../../../src/core/paths/path-safety';
import { checkInside, nodeRealPath, type RealPath } from '../../../../src/core/paths/real-path';

/** [what the sandbox names, the relative path it becomes or why it is refused] */
const corpus: [string, string | PathRefusal][] = [
  // Accepted, normalised.
  ['src/a.ts', 'src/a.ts'],
  ['a.ts', 'a.ts'],
  ['./src/a.ts', 'src/a.ts'],
  ['src/./a.ts', 'src/a.ts'],
  ['src\\lib\\a.ts', 'src/lib/a.ts'],
  ['/workspace/src/a.ts', 'src/a.ts'],
  ['/home/user/project/README.md', 'project/README.md'],
  ['\\workspace\\src\\a.ts', 'src/a.ts'],
  ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
  ['.gitignore', '.gitignore'],
  ['a..b/c', 'a..b/c'],
  ['..a/b', '..a/b'],
  ['a b/c d.txt', 'a b/c d.txt'],
  ['café/naïve.md', 'café/naïve.md'],
  ['日本語/ファイル.txt', '日本語/ファイル.txt'],
  ['emoji/😀.txt', 'emoji/😀.txt'],
  ['100%/a.txt', '100%/a.txt'],
  ['a%20b.txt', 'a%20b.txt'],
  ['console.log', 'console.log'],
  ['icon.con', 'icon.con'],
  ['computer/lpt.txt', 'computer/lpt.txt'],
  ['v1~beta/a', 'v1~beta/a'],
  // Nothing.
  ['', 'empty'],
  ['   ', 'empty'],
  ['.', 'empty'],
  ['./', 'empty-segment'],
  ['/workspace', 'empty'],
  ['/workspace/', 'empty'],
  // Going up.
  ['..', 'traversal'],
  ['../a', 'traversal'],
  ['src/../../a', 'traversal'],
  ['src/..', 'traversal'],
  ['..\\a', 'traversal'],
  ['src\\..\\..\\a', 'traversal'],
  ['/workspace/../etc/passwd', 'traversal'],
  ['%2e%2e/a', 'encoded'],
  ['%2E%2E%2Fa', 'encoded'],
  ['src/%2e%2e/a', 'encoded'],
  ['%252e%252e/a', 'encoded'],
  ['a%2fb', 'encoded'],
  ['a%5cb', 'encoded'],
  ['%2e', 'encoded'],
  ['a%00b', 'encoded'],
  // Absolute, elsewhere.
  ['/etc/passwd', 'outside-sandbox'],
  ['/workspaces/a', 'outside-sandbox'],
  ['/workspace2/a', 'outside-sandbox'],
  ['/home/userx/a', 'outside-sandbox'],
  ['/tmp/a', 'outside-sandbox'],
  ['\\etc\\passwd', 'outside-sandbox'],
  // Windows drives, shares, devices.
  ['C:\\Windows\\system32', 'drive'],
  ['C:/Windows', 'drive'],
  ['c:foo', 'drive'],
  ['C:', 'drive'],
  ['\\\\server\\share\\a', 'unc'],
  ['//server/share/a', 'unc'],
  ['\\\\?\\C:\\a', 'unc'],
  ['\\\\.\\COM1', 'unc'],
  ['CON', 'device-name'],
  ['con.txt', 'device-name'],
  ['src/NUL', 'device-name'],
  ['nul.tar.gz', 'device-name'],
  ['Com1', 'device-name'],
  ['COM9.log', 'device-name'],
  ['lpt1', 'device-name'],
  ['LPT¹.txt', 'device-name'],
  ['aux', 'device-name'],
  ['PRN.md', 'device-name'],
  ['CON .txt', 'device-name'],
  ['conin$', 'device-name'],
  ['GIT~1/hooks/pre-commit', 'short-name'],
  ['PROGRA~1/a', 'short-name'],
  ['a.', 'trailing-dot-or-space'],
  ['src./a', 'trailing-dot-or-space'],
  ['a ', 'trailing-dot-or-space'],
  ['...', 'trailing-dot-or-space'],
  ['a<b', 'reserved-character'],
  ['a>b', 'reserved-character'],
  ['a|b', 'reserved-character'],
  ['what?.md', 'reserved-character'],
  ['*.ts', 'reserved-character'],
  ['"q"', 'reserved-character'],
  ['file.txt:stream', 'reserved-character'],
  ['src/a:b', 'reserved-character'],
  // Home, URLs.
  ['~', 'home'],
  ['~/.ssh/authorized_keys', 'home'],
  ['~root/.bashrc', 'home'],
  ['~a', 'home'],
  ['file:///etc/passwd', 'url'],
  ['file:a', 'url'],
  ['http://example.com/a', 'url'],
  ['https://example.com/a', 'url'],
  ['vscode-remote://ssh-remote+x/a', 'url'],
  ['vscode-userdata:/settings.json', 'url'],
  ['data:text/plain,hi', 'url'],
  // Empty names.
  ['src//a.ts', 'empty-segment'],
  ['src/', 'empty-segment'],
  ['/workspace//a', 'empty-segment'],
  // Git metadata.
  ['.git/hooks/pre-commit', 'git-folder'],
  ['sub/.GIT/config', 'git-folder'],
  ['.git', 'git-folder'],
  // Invisible and control characters.
  ['a\u0000b', 'control-character'],
  ['a\nb', 'control-character'],
  ['a\tb', 'control-character'],
  ['a\u001bb', 'control-character'],
  ['a\u007fb', 'control-character'],
  ['a\u0085b', 'control-character'],
  ['a\u200bb', 'invisible-character'],
  ['src/\u202egnp.js', 'invisible-character'],
  ['\u2066a', 'invisible-character'],
  ['\ufeffa', 'invisible-character'],
  ['.g\u200cit/config', 'invisible-character'],
  ['a\u2028b', 'invisible-character'],
  ['a\udb40\udc41b', 'invisible-character'],
  ['a\ud800b', 'invalid-character'],
  ['a\udc00', 'invalid-character'],
  // Look-alikes of . / \ :
  ['\u2024\u2024/a', 'look-alike'],
  ['\u2025/a', 'look-alike'],
  ['\uff0e\uff0e/a', 'look-alike'],
  ['\ufe52\ufe52/a', 'look-alike'],
  ['a\u2215b', 'look-alike'],
  ['a\u2044b', 'look-alike'],
  ['a\uff0fb', 'look-alike'],
  ['a\u29f5b', 'look-alike'],
  ['a\uff3cb', 'look-alike'],
  ['a\ufe68b', 'look-alike'],
  ['a\u2216b', 'look-alike'],
  ['C\uff1a/a', 'look-alike'],
  ['a\u2236b', 'look-alike'],
  ['a\u3002b', 'look-alike'],
  // Too long.
  ['a'.repeat(256), 'too-long'],
  [`${'a/'.repeat(512)}b`, 'too-long'],
  ['é'.repeat(128), 'too-long'],
  ['a'.repeat(255), 'a'.repeat(255)],
];

const REFUSALS = new Set<string>([
  'empty',
  'too-long',
  'control-character',
  'invisible-character',
  'invalid-character',
  'look-alike',
  'url',
  'drive',
  'unc',
  'home',
  'outside-sandbox',
  'traversal',
  'encoded',
  'empty-segment',
  'reserved-character',
  'device-name',
  'trailing-dot-or-space',
  'short-name',
  'git-folder',
]);

describe('safeRelativePath', () => {
  for (const [raw, expected] of corpus) {
    const label = JSON.stringify(raw).slice(0, 60);
    if (REFUSALS.has(expected)) {
      it(`refuses ${label} (${expected})`, () => {
        const r = safeRelativePath(raw);
        assert.equal(r.ok, false, `accepted as ${r.ok && r.path}`);
        if (r.ok) return;
        assert.equal(r.reason, expected, r.message);
        assert.match(r.message, /^Refused the path "/);
        assert.doesNotMatch(
          r.message,
          /[\u0000-\u001f\u200b-\u200f\u202a-\u202e]/,
          'nothing hidden in the message',
        );
      });
    } else {
      it(`maps ${label} to ${JSON.stringify(expected).slice(0, 60)}`, () => {
        const r = safeRelativePath(raw);
        assert.deepEqual(r, { ok: true, path: expected, segments: expected.split('/') });
      });
    }
  }

  it('names the path in its message, with invisible characters escaped and long paths cut', () => {
    const r = safeRelativePath('../../etc/passwd');
    assert.deepEqual(r, {
      ok: false,
      reason: 'traversal',
      message: 'Refused the path "../../etc/passwd": it goes up out of the folder ("..").',
    });
    const hidden = safeRelativePath('src/\u202egnp.js');
    assert.ok(
      !hidden.ok && hidden.message.includes('"src/\\u{202e}gnp.js"'),
      !hidden.ok ? hidden.message : '',
    );
    const long = safeRelativePath('/etc/' + 'x'.repeat(300));
    assert.ok(!long.ok && long.message.includes('x…"'));
    const alike = safeRelativePath('a\u2215b');
    assert.ok(!alike.ok && alike.message.includes('U+2215'));
  });

  it('takes the sandbox roots and limits it is given', () => {
    assert.deepEqual(safeRelativePath('/srv/app/a.ts', { sandboxRoots: ['/srv/app/'] }), {
      ok: true,
      path: 'a.ts',
      segments: ['a.ts'],
    });
    const r = safeRelativePath('/workspace/a.ts', { sandboxRoots: [] });
    assert.ok(!r.ok && r.reason === 'outside-sandbox');
    assert.ok(
      !safeRelativePath('/a', { sandboxRoots: ['/'] }).ok,
      'the file system root is never a sandbox root',
    );
    assert.ok(!safeRelativePath('abcdef', { maxLength: 5 }).ok);
    assert.ok(!safeRelativePath('abc/def', { maxSegmentBytes: 2 }).ok);
  });
});

describe('checkInside', () => {
  /** A fake file system: path → real path; absent means nothing there. */
  const fake =
    (entries: Record<string, string>): RealPath =>
    async (p) =>
      entries[p];

  it('accepts a new file in an existing folder, and an existing plain file', async () => {
    const realpath = fake({ '/ws': '/ws', '/ws/src': '/ws/src', '/ws/src/a.ts': '/ws/src/a.ts' });
    assert.deepEqual(await checkInside('/ws', 'src/new/b.ts', realpath), {
      ok: true,
      realPath: '/ws/src/new/b.ts',
    });
    assert.deepEqual(await checkInside('/ws/', 'src/a.ts', realpath), { ok: true, realPath: '/ws/src/a.ts' });
  });

  it('refuses a path through a link that leads out of the folder', async () => {
    const realpath = fake({ '/ws': '/ws', '/ws/out': '/etc' });
    const r = await checkInside('/ws', 'out/passwd', realpath);
    assert.deepEqual(r, {
      ok: false,
      message: 'Refused the path "out/passwd": "/ws/out" leads outside the folder, to "/etc".',
    });
  });

  it('refuses a file that is itself a link out, and a sibling folder with the same prefix', async () => {
    const realpath = fake({ '/ws': '/ws', '/ws/a.ts': '/ws-other/a.ts' });
    assert.equal((await checkInside('/ws', 'a.ts', realpath)).ok, false);
  });

  it('accepts links that stay inside, and a folder that is itself a link', async () => {
    const realpath = fake({ '/link': '/real/ws', '/link/src': '/real/ws/lib' });
    assert.deepEqual(await checkInside('/link', 'src/a.ts', realpath), {
      ok: true,
      realPath: '/real/ws/lib/a.ts',
    });
  });

  it('compares without case when asked, and with Windows separators', async () => {
    const realpath = fake({ 'C:/WS': 'C:\\WS', 'C:/WS/src': 'c:\\ws\\src' });
    assert.equal((await checkInside('C:/WS', 'src/a.ts', realpath)).ok, false);
    assert.equal((await checkInside('C:/WS', 'src/a.ts', realpath, { caseInsensitive: true })).ok, true);
  });

  it('refuses a path that is not plain relative, whatever the file system says', async () => {
    const everything: RealPath = async (p) => p;
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './a', '']) {
      assert.equal((await checkInside('/ws', bad, everything)).ok, false, bad);
    }
  });

  it('refuses when the folder is missing or resolution fails', async () => {
    assert.equal((await checkInside('/ws', 'a', fake({}))).ok, false);
    const failing: RealPath = async (p) => {
      if (p === '/ws') return '/ws';
      throw new Error('EACCES');
    };
    const r = await checkInside('/ws', 'a', failing);
    assert.ok(!r.ok && r.message.includes('EACCES'));
  });

  describe('on the local disk (nodeRealPath)', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'den-paths-')));
      fs.mkdirSync(path.join(dir, 'ws', 'src'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'outside'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const ws = (): string => path.join(dir, 'ws');

    it('accepts plain paths and refuses symbolic links out, also dangling ones', async function () {
      if (process.platform === 'win32') this.skip();
      assert.equal((await checkInside(ws(), 'src/a.ts', nodeRealPath)).ok, true);
      fs.symlinkSync(path.join(dir, 'outside'), path.join(ws(), 'out'));
      assert.equal((await checkInside(ws(), 'out/a.ts', nodeRealPath)).ok, false);
      fs.symlinkSync(path.join(dir, 'outside', 'missing.txt'), path.join(ws(), 'dangling.txt'));
      const r = await checkInside(ws(), 'dangling.txt', nodeRealPath);
      assert.ok(!r.ok && r.message.includes('leads nowhere'), !r.ok ? r.message : '');
      fs.symlinkSync(path.join(ws(), 'src'), path.join(ws(), 'alias'));
      assert.deepEqual(await checkInside(ws(), 'alias/b.ts', nodeRealPath), {
        ok: true,
        realPath: `${path.join(ws(), 'src')}/b.ts`,
      });
    });
  });
});
