import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startEmulator, type Emulator } from '../index';
import { attachedTexts, notesFor, rewrite } from '../write-back';
import { call } from './helpers';

async function upload(emu: Emulator, key: string, name: string, content: string | Buffer): Promise<void> {
  const form = new FormData();
  form.append('key', key);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const res = await fetch(`${emu.url}/media/upload`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${emu.keys.primary}` },
    body: form,
  });
  assert.equal(res.status, 200, await res.text());
}

const TODO_FILE =
  'export function sum(a: number, b: number): number {\n  // TODO: add the numbers\n  return 0;\n}\n';

describe('emulator: the agent rewrites attached workspace files', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: false, eventDelayMs: 0 });
  });
  after(() => emu.close());

  /** Starts a code turn with attachments and waits for its end; answers the stored events. */
  async function turnWith(
    task: string,
    attachments: { name: string; content: string | Buffer; ref?: Record<string, unknown> }[],
  ) {
    const sessionId = randomUUID();
    const files = [];
    for (const a of attachments) {
      const key = `${sessionId}/${a.name}`;
      await upload(emu, key, a.name, a.content);
      files.push({ key, name: a.name, type: 'text/plain', size: Buffer.byteLength(a.content) });
    }
    const references = attachments.flatMap((a) => (a.ref ? [{ ...a.ref, attachment: a.name }] : []));
    const r = await call(emu, 'POST', '/sessions/new', {
      session_id: sessionId,
      task,
      mode: 'code',
      files,
      references,
    });
    assert.equal(r.status, 200, r.text);
    const agentId = String(r.body.agent_message_id);
    await emu.turnEnded(sessionId, agentId);
    const events = emu.storedEvents(sessionId, agentId);
    const snapshot = events.find((e) => e.kind === 'sandbox.snapshot')?.payload.snapshot as Record<
      string,
      unknown
    >;
    const completed = events.find((e) => e.kind === 'task.completed')?.payload.files as { name: string }[];
    const media = async (path: string): Promise<string> =>
      (await call(emu, 'GET', `/media/${sessionId}/${path}`)).text;
    return { sessionId, snapshot: Object.keys(snapshot), completed: completed.map((f) => f.name), media };
  }

  it('rewrites an attached file at its reference path and writes notes next to it, besides the usual files', async () => {
    const t = await turnWith('Implement the sum', [
      { name: 'sum.ts', content: TODO_FILE, ref: { type: 'file', path: 'lib/sum.ts', folder: 'ws' } },
    ]);

    const expected = [
      'src/implement-sum.ts',
      'test/implement-sum.test.ts',
      'lib/sum.ts',
      'lib/sum.ts.notes.md',
    ];
    assert.deepEqual(t.snapshot, expected);
    assert.deepEqual(t.completed, expected);
    assert.equal(
      await t.media('lib/sum.ts'),
      '// Reviewed by the agent\nexport function sum(a: number, b: number): number {\n  // Done: add the numbers\n  return 0;\n}\n',
    );
    assert.match(
      await t.media('lib/sum.ts.notes.md'),
      /^# Notes on sum\.ts\n[\s\S]*Implemented 1 TODO \(line 2 /,
    );
  });

  it('uses the file name without a reference, skips binary files and paths that climb out', async () => {
    const t = await turnWith('Look at these', [
      { name: 'plain.py', content: 'x = 1  # TODO make it 2\n' },
      { name: 'img.bin', content: Buffer.from([0x89, 0, 1, 2]), ref: { type: 'file', path: 'img.bin' } },
      { name: 'up.ts', content: 'a\n', ref: { type: 'file', path: '../up.ts' } },
    ]);

    assert.deepEqual(t.snapshot.slice(2), ['plain.py', 'plain.py.notes.md', 'up.ts', 'up.ts.notes.md']);
    assert.equal(await t.media('plain.py'), '# Reviewed by the agent\n# Done: make it 2\n');
  });

  it('writes a selection back as the part it is, edited, at its file path (no header)', async () => {
    const t = await turnWith('Fix this', [
      {
        name: 'sel-L2-L3.ts',
        content: '  let x = 1;\n  // TODO: double it',
        ref: { type: 'selection', path: 'a/sel.ts', attachment: 'sel-L2-L3.ts' },
      },
    ]);

    assert.deepEqual(t.snapshot.slice(2), ['a/sel.ts', 'a/sel.ts.notes.md']);
    assert.equal(await t.media('a/sel.ts'), '  let x = 1;\n  // Done: double it');
    assert.match(await t.media('a/sel.ts.notes.md'), /Rewrote the selection you sent/);
  });

  it('keeps the turn without attachments as it was: two files', async () => {
    const t = await turnWith('Add a retry helper', []);
    assert.deepEqual(t.snapshot, ['src/add-retry-helper.ts', 'test/add-retry-helper.test.ts']);
  });

  it('is deterministic and keeps CRLF line ends', () => {
    const file = { path: 'a/b.ts', content: 'one\r\n\t// TODO: two\r\n' };
    const once = rewrite(file);
    assert.deepEqual(once, rewrite(file));
    assert.equal(once.content, '// Reviewed by the agent\r\none\r\n\t// Done: two\r\n');
    assert.deepEqual(once.done, [2]);
    assert.equal(notesFor(file, once.done).path, 'a/b.ts.notes.md');
    assert.equal(
      rewrite({ path: 'x.md', content: '- TODO\n' }).content,
      '<!-- Reviewed by the agent -->\n<!-- Done: - TODO -->\n',
    );
  });

  it('takes the first attachment for a path and none whose content was not kept', () => {
    const got = attachedTexts(
      [
        { key: 'k1', name: 'a.ts', size: 1 },
        { key: 'k2', name: 'a-2.ts', size: 1 },
        { key: 'gone', name: 'c.ts', size: 1 },
      ],
      [
        { type: 'file', path: 'src/a.ts', attachment: 'a.ts' },
        { type: 'file', path: 'src/a.ts', attachment: 'a-2.ts' },
      ],
      (k) => (k === 'gone' ? undefined : Buffer.from(k)),
    );
    assert.deepEqual(got, [{ path: 'src/a.ts', content: 'k1' }]);
  });
});
