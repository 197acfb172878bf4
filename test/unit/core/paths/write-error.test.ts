import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { cannotWriteText, writeErrorCode } from '../../../../src/core/paths/write-error';

describe('write errors in words', () => {
  it('reads the code of a real failed write (writing to /dev/full gives ENOSPC)', async () => {
    const err = await fs.writeFile('/dev/full', 'x').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(writeErrorCode(err), 'ENOSPC');
    assert.equal(
      cannotWriteText('src/x.ts', err),
      'Could not write src/x.ts: the disk is full (ENOSPC). Free some space on that disk, then try again.',
    );
  });

  it('reads the code from the message of an error that has none (VS Code’s FileSystemError)', () => {
    assert.equal(writeErrorCode(new Error('ENOSPC: no space left on device, write')), 'ENOSPC');
    assert.equal(
      writeErrorCode(new Error('Unable to write file (NoSpace): No space left on device')),
      'ENOSPC',
    );
    assert.equal(writeErrorCode(new Error('EROFS: read-only file system, open')), 'EROFS');
    assert.equal(writeErrorCode(new Error('something else')), undefined);
  });

  it('says what to do for each code, and quotes other errors', () => {
    assert.match(cannotWriteText('a', { code: 'EDQUOT' }), /quota is used up \(EDQUOT\)\. Free some space/);
    assert.match(cannotWriteText('a', { code: 'EROFS' }), /read-only \(EROFS\)/);
    assert.match(
      cannotWriteText('a', { code: 'EACCES' }),
      /permission denied \(EACCES\)\. Check who may write/,
    );
    assert.equal(cannotWriteText('a', new Error('boom')), 'Could not write a: boom');
  });
});
