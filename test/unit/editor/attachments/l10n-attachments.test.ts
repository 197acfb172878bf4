import assert from 'node:assert/strict';
import {
  attachSummary,
  folderVerdict,
  megabytes,
  sizeLimitMessage,
} from '../../../../src/editor/attachments/attach-limits';
import { droppedUriProblem } from '../../../../src/editor/attachments/dropped-uris';
import { formatCount, setL10nBundle } from '../../../../src/core/shared/l10n';
import { formatBytes } from '../../../../src/core/shared/format';

const MB = 1024 * 1024;

describe('Attachment texts in another language', () => {
  afterEach(() => setL10nBundle(undefined));

  it('says the size limit, the folder verdicts and the summary with the bundle, args in place', () => {
    setL10nBundle(
      {
        '{0} ({1}) was not attached: attachments are limited to {2} each ({3}).': '⟦{0}|{1}|{2}|{3}⟧',
        '{0} files were not attached, each larger than the {1} limit ({2}): {3}.': '⟦{0} > {1} ({2}): {3}⟧',
        '{0} and {1} more': '⟦{0} +{1}⟧',
        '{0} folders': '⟦{0} Ordner⟧',
        'Attach {0} files ({1}) from {2}?': '⟦{0}/{1}/{2}?⟧',
        '{0} holds more than {1} files: Den attaches at most that many at once. Attach a smaller folder, or the files you need.':
          '⟦{0} > {1}⟧',
        'attached {0} files': '⟦{0} angehängt⟧',
        '{0} failed': '⟦{0} fehlgeschlagen⟧',
      },
      'de',
    );
    assert.equal(
      sizeLimitMessage([{ name: 'big.bin', size: 150 * MB }], megabytes(100)),
      `⟦big.bin|${formatBytes(150 * MB)}|${formatBytes(100 * MB)}|den.attachments.maxFileSizeMB⟧`,
    );
    const five = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: n, size: 2 * MB }));
    assert.equal(
      sizeLimitMessage(five, megabytes(1)),
      `⟦5 > ${formatBytes(MB)} (den.attachments.maxFileSizeMB): ⟦a (${formatBytes(2 * MB)}), b (${formatBytes(2 * MB)}), c (${formatBytes(2 * MB)}) +2⟧⟧`,
    );
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, size: 1024 }));
    assert.deepEqual(folderVerdict(['a', 'b'], many, false), {
      kind: 'confirm',
      message: `⟦51/${formatBytes(51 * 1024)}/⟦2 Ordner⟧?⟧`,
    });
    // Counts are written in the person's locale.
    assert.deepEqual(folderVerdict(['repo'], [], true), {
      kind: 'refuse',
      message: `⟦repo > ${formatCount(1000)}⟧`,
    });
    const none = { uploaded: 0, reused: 0, duplicate: 0, failed: 0, removed: 0 };
    assert.equal(attachSummary({ ...none, uploaded: 2, failed: 1 }), '⟦2 angehängt⟧ (⟦1 fehlgeschlagen⟧)');
  });

  it('says why a dropped URI is refused with the bundle', () => {
    setL10nBundle(
      {
        'it is not a file ({0} scheme)': '⟦kein Datei-URI ({0})⟧',
        'it is on another machine': '⟦anderer Rechner⟧',
      },
      'de',
    );
    const parts = { scheme: 'https', authority: 'x', path: '/a', query: '', fragment: '' };
    assert.equal(droppedUriProblem(parts), '⟦kein Datei-URI (https)⟧');
    assert.equal(droppedUriProblem({ ...parts, scheme: 'file' }), '⟦anderer Rechner⟧');
  });
});
