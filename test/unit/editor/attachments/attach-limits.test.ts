import assert from 'node:assert/strict';
import {
  attachSummary,
  FOLDER_LIMITS,
  folderVerdict,
  megabytes,
  overLimit,
  sizeLimitMessage,
} from '../../../../src/editor/attachments/attach-limits';

const MB = 1024 * 1024;

describe('Attach limits', () => {
  it('names the file, its size, the limit and the setting when one file is too big', () => {
    assert.equal(
      sizeLimitMessage([{ name: 'data/big.bin', size: 150 * MB }], megabytes(100)),
      'data/big.bin (150 MB) was not attached: attachments are limited to 100 MB each (den.attachments.maxFileSizeMB).',
    );
  });

  it('lists a few of many files that are too big, and counts the rest', () => {
    const files = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `${n}.iso`, size: 2 * MB }));
    assert.equal(
      sizeLimitMessage(files, megabytes(1)),
      '5 files were not attached, each larger than the 1.0 MB limit (den.attachments.maxFileSizeMB): a.iso (2.0 MB), b.iso (2.0 MB), c.iso (2.0 MB) and 2 more.',
    );
  });

  it('counts a file of exactly the limit as within it', () => {
    const files = [
      { name: 'a', size: MB },
      { name: 'b', size: MB + 1 },
    ];
    assert.deepEqual(
      overLimit(files, MB).map((f) => f.name),
      ['b'],
    );
  });

  it('attaches few small files of a folder at once', () => {
    const files = Array.from({ length: FOLDER_LIMITS.confirmFiles }, (_, i) => ({ name: `f${i}`, size: 10 }));
    assert.deepEqual(folderVerdict(['src'], files, false), { kind: 'ok' });
  });

  it('asks before attaching more files than the confirmation threshold', () => {
    const files = Array.from({ length: FOLDER_LIMITS.confirmFiles + 1 }, (_, i) => ({
      name: `f${i}`,
      size: 1024,
    }));
    assert.deepEqual(folderVerdict(['src'], files, false), {
      kind: 'confirm',
      message: 'Attach 51 files (51 KB) from src?',
    });
  });

  it('asks before attaching a few files that are big together', () => {
    const v = folderVerdict(['a', 'b'], [{ name: 'x', size: FOLDER_LIMITS.confirmBytes + 1 }], false);
    assert.equal(v.kind, 'confirm');
    assert.match(v.kind === 'confirm' ? v.message : '', /^Attach 1 file \(20 MB\) from 2 folders\?$/);
  });

  it('refuses a folder with more files than may be attached at once', () => {
    const v = folderVerdict(['repo'], [], true);
    assert.equal(v.kind, 'refuse');
    assert.match(v.kind === 'refuse' ? v.message : '', /^repo holds more than 1,000 files/);
    const many = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, size: 1 }));
    const limits = { confirmFiles: 2, confirmBytes: 1e9, maxFiles: 4 };
    assert.equal(folderVerdict(['x'], many, false, limits).kind, 'refuse');
  });

  it('sums up an attach', () => {
    const none = { uploaded: 0, reused: 0, duplicate: 0, failed: 0, removed: 0 };
    assert.equal(attachSummary({ ...none, uploaded: 1 }), 'attached 1 file');
    assert.equal(
      attachSummary({ ...none, uploaded: 2, reused: 1, duplicate: 1, failed: 1, removed: 2 }),
      'attached 3 files (1 without uploading: the session has the content; 1 already in the composer; 1 failed; 2 cancelled)',
    );
  });
});
