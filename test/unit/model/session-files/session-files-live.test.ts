import assert from 'node:assert/strict';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import type { FilesUpdate } from '../../../../src/model/session-files/file-index';
import { SessionFiles, type FileEvent } from '../../../../src/model/session-files/session-files';
import { waitFor } from '../../../support/wait';
import { lastTurn, useHostRigs } from '../session/host-rig';

describe('SessionFiles with a session host (against the emulator)', function () {
  this.timeout(15_000);
  const rigs = useHostRigs();

  it("publishes a live turn's sandbox.snapshot, then the stored snapshot; the files read as the service stores them", async () => {
    const updates: FilesUpdate[] = [];
    const r = rigs.rig({
      extra: { events: { onFilesChanged: (_h, u) => updates.push(u) } },
    });
    const files = new SessionFiles({
      fetch: (id) => r.client.getSession(id),
      download: async (f, ctx) => (await r.client.downloadFile(f, ctx)).content,
    });
    const events: FileEvent[] = [];
    files.onDidChange((e) => events.push(...e));
    const sessionId = r.host.sessionId;
    const forward = (u: FilesUpdate): void => files.update(sessionId, u);

    assert.equal(await r.host.send('Add a slugify helper', 'code', 'fast'), true);
    const turn = lastTurn(r);
    await waitFor('the turn to end', () => isTerminalStatus(turn.status), 8_000);
    await r.host.whenReconciled();

    const live = updates.find((u) => u.kind === 'changes');
    assert.ok(live && live.kind === 'changes', 'no live snapshot was published');
    const paths = Object.keys(live.updated).sort();
    assert.deepEqual(paths, turn.files.map((f) => f.path).sort());
    assert.ok(
      updates.some((u) => u.kind === 'stored'),
      'the reconcile published no stored snapshot',
    );

    // Known index first, then the live changes: the change events name the files.
    assert.deepEqual(await files.list(sessionId, ''), [
      ['src', 'directory'],
      ['test', 'directory'],
    ]);
    for (const u of updates) forward(u);
    assert.deepEqual(events, [], 'the stored files were reported as changed');
    for (const path of paths) {
      const stored = await fetch(`${rigs.emu().url}/media/${sessionId}/${path}`, {
        headers: { authorization: `Bearer ${rigs.emu().keys.primary}` },
      });
      assert.equal(Buffer.from(await files.read(sessionId, path)).toString('utf8'), await stored.text());
      assert.equal((await files.stat(sessionId, path)).type, 'file');
    }
  });
});
