import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { turnFileFromUpload } from '../../../../src/core/client/normalize-results';
import { contentHash } from '../../../../src/core/merge/hash';
import type { AttachmentSpec } from '../../../../src/model/attachments/attachment-list';
import { recordSentBases, type SentBase } from '../../../../src/model/apply/bases';
import { waitFor } from '../../../support/wait';
import { useHostRigs, type HostRig } from '../session/host-rig';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const base = (path: string, content: string | undefined, hash?: string): SentBase => ({
  path,
  read: async () => (content === undefined ? undefined : bytes(content)),
  ...(hash ? { hash } : {}),
});

describe('bases of sent attachments', () => {
  it('records what was uploaded, and nothing for a file that changed since or cannot be read', async () => {
    const recorded: [string, string][] = [];
    const record = async (path: string, content: Uint8Array): Promise<void> => {
      recorded.push([path, new TextDecoder().decode(content)]);
    };
    const n = await recordSentBases(
      [
        base('src/a.ts', 'same\n', contentHash('same\n')),
        base('src/b.ts', 'edited after the upload\n', contentHash('as uploaded\n')),
        base('src/c.ts', undefined),
        base('src/d.ts', 'no hash known\n'),
        { path: 'src/e.ts', read: async () => Promise.reject(new Error('gone')) },
      ],
      record,
    );
    assert.equal(n, 2);
    assert.deepEqual(recorded, [
      ['src/a.ts', 'same\n'],
      ['src/d.ts', 'no hash known\n'],
    ]);
  });

  describe('through the session host', () => {
    const rigs = useHostRigs();
    let r: HostRig | undefined;

    const chip = (rig: HostRig, name: string, text: string): AttachmentSpec => ({
      name,
      size: text.length,
      hash: contentHash(text),
      base: base(`src/${name}`, text, contentHash(text)),
      upload: async (onProgress, signal) =>
        turnFileFromUpload(
          await rig.client.upload(
            {
              key: `${rig.host.sessionId}/${name}`,
              filename: name,
              contentType: 'text/plain',
              size: text.length,
              body: () => Readable.from([Buffer.from(text)]),
              onProgress,
            },
            signal,
          ),
        ),
    });

    it('records a base for each chip that goes with a turn, none for a chip removed before', async () => {
      const recorded: string[] = [];
      r = rigs.rig({
        extra: {
          recordBase: async (path) => {
            recorded.push(path);
          },
        },
      });
      const rig = r;
      await rig.host.handle({ type: 'ready', lastSeq: null });
      await rig.host.attach(chip(rig, 'kept.ts', 'export const kept = 1;\n'));
      await rig.host.attach(chip(rig, 'dropped.ts', 'export const dropped = 1;\n'));
      await waitFor('two ready chips', () =>
        rig.mirror.composer?.attachments.every((a) => a.status === 'ready') &&
        rig.mirror.composer.attachments.length === 2
          ? rig.mirror.composer.attachments
          : undefined,
      );
      const dropped = rig.mirror.composer?.attachments.find((a) => a.name === 'dropped.ts');
      await rig.host.handle({ type: 'removeAttachment', id: dropped?.id ?? '' });
      assert.equal(await rig.host.send('Review kept.ts', 'code', 'fast'), true);
      await waitFor('the base recorded', () => recorded.length > 0);
      assert.deepEqual(recorded, ['src/kept.ts']);
    });
  });
});
