import assert from 'node:assert/strict';
import {
  fileState,
  same,
  type FileStateInput,
  type FileStateResult,
} from '../../../src/core/files/file-state';

const bin = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x01);
const bin2 = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x02);
const bin3 = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x03);

describe('fileState', () => {
  const cases: [string, FileStateInput, FileStateResult][] = [
    // 1. The agent deleted it.
    ['deleted on both sides', { base: 'a\n', agentDeleted: true }, { state: 'identical', clean: true }],
    [
      'deleted by the agent, workspace unchanged',
      { base: 'a\n', workspace: 'a\n', agentDeleted: true },
      { state: 'deleted', clean: true },
    ],
    [
      'deleted by the agent, workspace unchanged but for CRLF',
      { base: 'a\n', workspace: 'a\r\n', agentDeleted: true },
      { state: 'deleted', clean: true },
    ],
    [
      'deleted by the agent, workspace edited since',
      { base: 'a\n', workspace: 'a\nb\n', agentDeleted: true },
      { state: 'deleted', clean: false },
    ],
    [
      'deleted by the agent, base unknown',
      { workspace: 'a\n', agentDeleted: true },
      { state: 'deleted', clean: false },
    ],
    // 2. No workspace file.
    ['new file', { agent: 'a\n' }, { state: 'new', clean: true }],
    ['new binary file', { agent: bin }, { state: 'new', clean: true }],
    [
      'the person deleted the attached file since',
      { base: 'a\n', agent: 'a\nb\n' },
      { state: 'new', clean: false },
    ],
    // 3. Workspace the same as the agent's.
    ['identical', { base: 'a\n', workspace: 'b\n', agent: 'b\n' }, { state: 'identical', clean: true }],
    ['identical without base', { workspace: 'b\n', agent: 'b\n' }, { state: 'identical', clean: true }],
    [
      'identical but for line endings and a BOM',
      { workspace: '\uFEFFa\r\nb\r\n', agent: 'a\nb\n' },
      { state: 'identical', clean: true },
    ],
    ['identical bytes', { workspace: bin, agent: Uint8Array.from(bin) }, { state: 'identical', clean: true }],
    // 4. No base.
    ['modified without base', { workspace: 'a\n', agent: 'b\n' }, { state: 'modified', clean: false }],
    ['a trailing newline is a change', { workspace: 'a', agent: 'a\n' }, { state: 'modified', clean: false }],
    // 5. The agent left it as it saw it.
    [
      'only the workspace changed',
      { base: 'a\n', workspace: 'a\nmine\n', agent: 'a\n' },
      { state: 'identical', clean: true },
    ],
    // 6. Only the agent changed it.
    [
      'only the agent changed it',
      { base: 'a\n', workspace: 'a\n', agent: 'a\nb\n' },
      { state: 'modified', clean: true, merged: 'a\nb\n' },
    ],
    [
      'only the agent changed it, in the workspace’s CRLF',
      { base: 'a\r\n', workspace: 'a\r\n', agent: 'a\nb\n' },
      { state: 'modified', clean: true, merged: 'a\r\nb\r\n' },
    ],
    [
      'only the agent changed a binary file',
      { base: bin, workspace: Uint8Array.from(bin), agent: bin2 },
      { state: 'modified', clean: true },
    ],
    // 7. Both changed, binary.
    [
      'both changed a binary file',
      { base: bin, workspace: bin2, agent: bin3 },
      { state: 'conflicts', clean: false },
    ],
    [
      'a text file became binary on one side',
      { base: 'a\n', workspace: 'b\n', agent: bin },
      { state: 'conflicts', clean: false },
    ],
    // 8. The merge decides.
    [
      'both changed different lines',
      { base: 'a\nb\nc\nd\n', workspace: 'A\nb\nc\nd\n', agent: 'a\nb\nc\nD\n' },
      { state: 'modified', clean: true, merged: 'A\nb\nc\nD\n' },
    ],
    [
      'both changed the same line',
      { base: 'a\nb\n', workspace: 'a\nmine\n', agent: 'a\nagent\n' },
      { state: 'conflicts', clean: false },
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(fileState(input), expected));
  }

  it('refuses to take missing agent content for a deletion', () => {
    const untyped = { base: 'a\n', workspace: 'a\n' } as unknown as FileStateInput;
    assert.throws(() => fileState(untyped), /missing and it was not deleted/);
  });
});

describe('same', () => {
  const cases: [string, string | Uint8Array, string | Uint8Array, boolean][] = [
    ['equal strings', 'a', 'a', true],
    ['text and its bytes', 'é\n', new TextEncoder().encode('é\n'), true],
    ['CRLF and LF', 'a\r\nb', 'a\nb', true],
    ['a trailing newline', 'a', 'a\n', false],
    ['different lines', 'a\n', 'b\n', false],
    ['different binaries', bin, bin2, false],
    ['binary and text', bin, 'PNG', false],
    ['empty', '', new Uint8Array(), true],
  ];
  for (const [name, a, b, expected] of cases) it(name, () => assert.equal(same(a, b), expected));
});
