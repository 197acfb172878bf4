import assert from 'node:assert/strict';
import {
  attachmentKey,
  buildReference,
  contentTypeFor,
  DEFAULT_CONTENT_TYPE,
  distinctNames,
  languageFor,
  MAX_NAME_LENGTH,
  safeFileName,
  selectionFileName,
  workspaceLocation,
  type ReferenceSource,
} from '../../../../src/editor/attachments/attachment-info';

const SESSION = '6f1c2a52-93e4-4a36-9d0e-3b8f1f0c2d11';

function source(over: Partial<ReferenceSource> = {}): ReferenceSource {
  return { type: 'file', path: 'src/app.ts', folder: 'work', ...over };
}

describe('attachment info', () => {
  describe('contentTypeFor', () => {
    const cases: [string, string][] = [
      ['app.ts', 'text/x-typescript'],
      ['Component.TSX', 'text/x-typescript'],
      ['README.md', 'text/markdown'],
      ['data.json', 'application/json'],
      ['report.pdf', 'application/pdf'],
      ['photo.JPEG', 'image/jpeg'],
      ['script.py', 'text/x-python'],
      ['archive.tar.gz', 'application/gzip'],
      ['Makefile', DEFAULT_CONTENT_TYPE],
      ['.env', DEFAULT_CONTENT_TYPE],
      ['weird.xyz123', DEFAULT_CONTENT_TYPE],
    ];
    for (const [name, type] of cases) {
      it(`gives ${type} for ${name}`, () => assert.equal(contentTypeFor(name), type));
    }

    it('uses the given fallback for unknown extensions', () => {
      assert.equal(contentTypeFor('notes', 'text/plain'), 'text/plain');
      assert.equal(contentTypeFor('notes.md', 'text/plain'), 'text/markdown');
    });
  });

  describe('languageFor', () => {
    it('knows the language of common source files and nothing of binaries', () => {
      assert.equal(languageFor('a.ts'), 'typescript');
      assert.equal(languageFor('a.py'), 'python');
      assert.equal(languageFor('a.png'), undefined);
      assert.equal(languageFor('LICENSE'), undefined);
    });
  });

  describe('safeFileName', () => {
    const cases: [string, string][] = [
      ['app.ts', 'app.ts'],
      ['../x', 'x'],
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\system.ini', 'system.ini'],
      ['/abs/path/file.txt', 'file.txt'],
      ['dir/', 'dir'],
      ['..', 'file'],
      ['.', 'file'],
      ['', 'file'],
      ['   ', 'file'],
      ['my  file\tname.ts', 'my file name.ts'],
      ['  padded.md  ', 'padded.md'],
      ['trailing.', 'trailing'],
      ['a:b*c?d"e<f>g|h.txt', 'a_b_c_d_e_f_g_h.txt'],
      ['line\nbreak\r.txt', 'line break .txt'],
      ['bell\u0007.txt', 'bell_.txt'],
      ['Übersicht – Größen.md', 'Übersicht – Größen.md'],
      ['日本語のファイル.ts', '日本語のファイル.ts'],
      ['.env', '.env'],
    ];
    for (const [raw, safe] of cases) {
      it(`turns ${JSON.stringify(raw)} into ${JSON.stringify(safe)}`, () =>
        assert.equal(safeFileName(raw), safe));
    }

    it('composes decomposed unicode so the same name always gives the same key', () => {
      assert.equal(safeFileName('Cafe\u0301.md'), 'Caf\u00e9.md');
    });

    it('shortens long names to the limit and keeps the extension', () => {
      const out = safeFileName(`${'a'.repeat(300)}.tsx`);
      assert.equal([...out].length, MAX_NAME_LENGTH);
      assert.ok(out.endsWith('.tsx'));
    });

    it('counts characters, not UTF-16 units, when shortening', () => {
      const out = safeFileName(`${'😀'.repeat(200)}.md`);
      assert.equal([...out].length, MAX_NAME_LENGTH);
      assert.ok(out.endsWith('.md'));
      assert.ok(!/[\ud800-\udbff]$/.test(out.slice(0, -3)), 'a surrogate pair was cut in half');
    });
  });

  describe('attachmentKey', () => {
    it('puts the safe name under the session id', () => {
      assert.equal(attachmentKey(SESSION, 'src/app.ts'), `${SESSION}/app.ts`);
      assert.equal(attachmentKey(SESSION, '../../x'), `${SESSION}/x`);
      assert.equal(attachmentKey(SESSION, 'with space.md'), `${SESSION}/with space.md`);
    });

    it('never yields a key with a path segment that climbs or is empty', () => {
      for (const raw of ['..', '../', '/..', 'a/../..', '', '\\..\\']) {
        const segments = attachmentKey(SESSION, raw).split('/');
        assert.equal(segments.length, 2, raw);
        assert.ok(segments[1] && segments[1] !== '..' && segments[1] !== '.', raw);
      }
    });
  });

  describe('distinctNames', () => {
    it('numbers repeated names before the extension, case-insensitively', () => {
      assert.deepEqual(distinctNames(['index.ts', 'src/index.ts', 'lib/INDEX.ts', 'Makefile', 'Makefile']), [
        'index.ts',
        'index-2.ts',
        'INDEX-3.ts',
        'Makefile',
        'Makefile-2',
      ]);
    });

    it('does not collide with a name that already has the number', () => {
      assert.deepEqual(distinctNames(['a.ts', 'a-2.ts', 'a.ts']), ['a.ts', 'a-2.ts', 'a-3.ts']);
    });

    it('makes the names safe first', () => {
      assert.deepEqual(distinctNames(['../x', 'x']), ['x', 'x-2']);
    });
  });

  describe('selectionFileName', () => {
    const cases: [string, number, number, string][] = [
      ['app.ts', 12, 40, 'app-L12-L40.ts'],
      ['app.ts', 7, 7, 'app-L7.ts'],
      ['Makefile', 1, 3, 'Makefile-L1-L3.txt'],
      ['my file.test.ts', 2, 5, 'my file.test-L2-L5.ts'],
      ['../evil.sh', 1, 2, 'evil-L1-L2.sh'],
    ];
    for (const [file, a, b, name] of cases) {
      it(`names lines ${a}–${b} of ${file} ${name}`, () => assert.equal(selectionFileName(file, a, b), name));
    }
  });

  describe('workspaceLocation', () => {
    const folder = { name: 'shop', path: '/home/me/code/shop' };
    const cases: [string, string, typeof folder | undefined, { path: string; folder?: string }][] = [
      [
        'a file in a folder',
        '/home/me/code/shop/src/cart.ts',
        folder,
        { path: 'src/cart.ts', folder: 'shop' },
      ],
      [
        'a file at the folder root',
        '/home/me/code/shop/README.md',
        folder,
        { path: 'README.md', folder: 'shop' },
      ],
      [
        'a Windows path in another case',
        '/C:/Users/Me/Shop/src/cart.ts',
        { name: 'Shop', path: '/c:/Users/Me/Shop' },
        { path: 'src/cart.ts', folder: 'Shop' },
      ],
      [
        'a file outside every folder: its name only',
        '/home/me/Downloads/notes.txt',
        undefined,
        { path: 'notes.txt' },
      ],
      ['an untitled editor', 'Untitled-1', undefined, { path: 'Untitled-1' }],
    ];
    for (const [what, file, f, expected] of cases) {
      it(`locates ${what} without the absolute path`, () =>
        assert.deepEqual(workspaceLocation(file, f), expected));
    }
  });

  describe('buildReference', () => {
    it('builds a file reference with only the fields it has', () => {
      assert.deepEqual(buildReference(source({ language: 'typescript', attachment: 'app.ts' })), {
        type: 'file',
        path: 'src/app.ts',
        folder: 'work',
        language: 'typescript',
        attachment: 'app.ts',
      });
      assert.deepEqual(buildReference(source()), {
        type: 'file',
        path: 'src/app.ts',
        folder: 'work',
      });
    });

    it('reports a selection with 1-based lines and 0-based characters', () => {
      const ref = buildReference(
        source({
          type: 'selection',
          language: 'typescript',
          range: { start: { line: 11, character: 4 }, end: { line: 39, character: 1 } },
          attachment: 'app-L12-L40.ts',
        }),
      );
      assert.deepEqual(ref, {
        type: 'selection',
        path: 'src/app.ts',
        folder: 'work',
        language: 'typescript',
        range: { startLine: 12, startCharacter: 4, endLine: 40, endCharacter: 1 },
        attachment: 'app-L12-L40.ts',
      });
    });

    it('never carries an absolute local path or a file URI, even when given one', () => {
      for (const path of [
        '/home/me/secret-project/src/app.ts',
        'C:\\Users\\me\\app.ts',
        'c:/Users/me/app.ts',
      ]) {
        const ref = buildReference(source({ path, folder: undefined }));
        assert.deepEqual(ref, { type: 'file', path: 'app.ts' }, path);
      }
      const sent = JSON.stringify(buildReference(source({ type: 'selection', language: 'ts' })));
      assert.doesNotMatch(sent, /file:|\/work\/src|"uri"/);
    });

    it('says when the content came from unsaved editor text, and only then', () => {
      assert.equal(buildReference(source({ unsaved: true })).unsaved, true);
      assert.ok(!('unsaved' in buildReference(source({ unsaved: false }))));
    });

    it('is plain JSON that survives a round trip unchanged', () => {
      const ref = buildReference(
        source({
          type: 'selection',
          range: { start: { line: 0, character: 0 }, end: { line: 2, character: 5 } },
        }),
      );
      assert.deepEqual(JSON.parse(JSON.stringify(ref)), ref);
    });
  });
});
