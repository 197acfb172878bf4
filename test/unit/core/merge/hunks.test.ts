import assert from 'node:assert/strict';
import { agentHunks, applyHunks, hunkCounts, type HunkInput } from '../../../../src/core/merge/hunks';
import { CONFLICT_MARKERS as M, merge3 } from '../../../../src/core/merge/merge';
import { seeded } from './helpers';

/** Lines, each ending with `\n`. */
const L = (...lines: string[]): string => lines.map((l) => l + '\n').join('');
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function states(input: HunkInput): string[] {
  const r = agentHunks(input);
  assert.ok(r.ok);
  return r.hunks.map((h) => h.state);
}

function applied(input: HunkInput, accept: number[], reject: number[] = []): string {
  const r = applyHunks(input, { accept, reject });
  assert.ok(r.ok);
  return r.text;
}

/** A file with three separated changes of the agent. */
const base = L('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i');
const agent = L('a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j');
const three = L('A', 'b', 'c', 'd', 'E', 'e2', 'f', 'g', 'h', 'i', 'j');

describe('core/merge/hunks', () => {
  describe('agentHunks', () => {
    it('lists the agent’s hunks against the base, each still to apply, where the workspace is the base', () => {
      const r = agentHunks({ base, workspace: base, agent: three });
      assert.ok(r.ok);
      assert.equal(r.hasBase, true);
      assert.deepEqual(
        r.hunks.map((h) => [h.index, h.base, h.agent, h.workspace, h.state]),
        [
          [0, { start: 0, end: 1 }, { start: 0, end: 1 }, { start: 0, end: 1 }, 'pending'],
          [1, { start: 4, end: 5 }, { start: 4, end: 6 }, { start: 4, end: 5 }, 'pending'],
          [2, { start: 9, end: 9 }, { start: 10, end: 11 }, { start: 9, end: 9 }, 'pending'],
        ],
      );
      assert.deepEqual(hunkCounts(r.hunks), { applied: 0, total: 3 });
    });

    it('tells applied hunks from pending ones and conflicts, with the workspace lines of each', () => {
      // The workspace took the first hunk, changed the `e` hunk its own way, and added a line at the top of `g`.
      const workspace = L('A', 'b', 'c', 'd', 'mine', 'f', 'x', 'g', 'h', 'i');
      const r = agentHunks({ base, workspace, agent: three });
      assert.ok(r.ok);
      assert.deepEqual(
        r.hunks.map((h) => [h.state, h.workspace]),
        [
          ['applied', { start: 0, end: 1 }],
          ['conflict', { start: 4, end: 5 }],
          ['pending', { start: 10, end: 10 }],
        ],
      );
      assert.deepEqual(hunkCounts(r.hunks), { applied: 1, total: 3 });
    });

    it('keeps the same hunks while the workspace changes (accepting one does not renumber the rest)', () => {
      const before = agentHunks({ base, workspace: base, agent: three });
      const after = agentHunks({
        base,
        workspace: applied({ base, workspace: base, agent: three }, [1]),
        agent: three,
      });
      assert.ok(before.ok && after.ok);
      assert.deepEqual(
        after.hunks.map((h) => [h.index, h.base, h.agent]),
        before.hunks.map((h) => [h.index, h.base, h.agent]),
      );
      assert.deepEqual(
        after.hunks.map((h) => h.state),
        ['pending', 'applied', 'pending'],
      );
      // The third hunk moved down one line in the workspace (the second added one).
      assert.deepEqual(after.hunks[2].workspace, { start: 10, end: 10 });
    });

    it('without a base: the workspace → agent diff, every hunk still to apply', () => {
      const r = agentHunks({ workspace: agent, agent: three });
      assert.ok(r.ok);
      assert.equal(r.hasBase, false);
      assert.deepEqual(
        r.hunks.map((h) => [h.state, h.base]),
        [
          ['pending', { start: 0, end: 2 }],
          ['pending', { start: 4, end: 5 }],
        ],
      );
    });

    it('a file the agent created (no base, no workspace file) is one hunk of all its lines', () => {
      const r = agentHunks({ agent: L('x', 'y') });
      assert.ok(r.ok);
      assert.deepEqual(
        r.hunks.map((h) => [h.base, h.agent, h.state]),
        [[{ start: 0, end: 0 }, { start: 0, end: 2 }, 'pending']],
      );
    });

    it('an empty agent file against a file: one hunk removing every line; empty on both sides: none', () => {
      assert.deepEqual(states({ base: L('a'), workspace: L('a'), agent: '' }), ['pending']);
      assert.deepEqual(states({ base: '', workspace: '', agent: '' }), []);
      assert.deepEqual(states({ base: '', workspace: '', agent: L('new') }), ['pending']);
    });

    it('refuses a deleted file (Apply decides it whole) and binary content', () => {
      assert.deepEqual(agentHunks({ base, workspace: base }), { ok: false, reason: 'deleted' });
      assert.deepEqual(agentHunks({ base, workspace: bytes('a\0b'), agent: three }), {
        ok: false,
        reason: 'binary',
      });
      assert.deepEqual(agentHunks({ base, workspace: base, agent: new Uint8Array([0xff, 0xfe, 0x00]) }), {
        ok: false,
        reason: 'binary',
      });
      assert.deepEqual(applyHunks({ base, workspace: base }, { accept: [0] }), {
        ok: false,
        reason: 'deleted',
      });
    });

    it('line endings are not changes: a CRLF workspace and an LF agent differ only where the agent edited', () => {
      const crlf = base.replace(/\n/g, '\r\n');
      assert.deepEqual(states({ base, workspace: crlf, agent: three }), ['pending', 'pending', 'pending']);
      assert.deepEqual(states({ base: crlf, workspace: crlf, agent: agent }), ['pending', 'pending']);
    });
  });

  describe('applyHunks', () => {
    const input = { base, workspace: base, agent: three };

    it('accepts chosen hunks only, leaving the others as the workspace has them', () => {
      assert.equal(applied(input, [0, 2]), L('A', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'));
      assert.equal(applied(input, [1]), L('a', 'b', 'c', 'd', 'E', 'e2', 'f', 'g', 'h', 'i'));
    });

    it('accepting every hunk is Apply’s merge; accepting the rest after some is the same', () => {
      assert.equal(applied(input, [0, 1, 2]), three);
      const step = applied(input, [1]);
      assert.equal(applied({ base, workspace: step, agent: three }, [0, 2]), three);
    });

    it('merges with the workspace’s own edits elsewhere', () => {
      const workspace = L('a', 'b', 'c', 'd', 'e', 'f', 'G!', 'h', 'i');
      assert.equal(
        applied({ base, workspace, agent: three }, [1]),
        L('a', 'b', 'c', 'd', 'E', 'e2', 'f', 'G!', 'h', 'i'),
      );
    });

    it('rejecting a pending hunk writes nothing; rejecting an applied one puts the base’s lines back', () => {
      const none = applyHunks(input, { reject: [0] });
      assert.ok(none.ok);
      assert.equal(none.changed, false);
      assert.equal(none.text, base);
      const two = applied(input, [0, 1]);
      const back = applyHunks({ base, workspace: two, agent: three }, { reject: [0] });
      assert.ok(back.ok);
      assert.equal(back.changed, true);
      assert.equal(back.text, L('a', 'b', 'c', 'd', 'E', 'e2', 'f', 'g', 'h', 'i'));
      // Accept one and take back another in one go.
      assert.equal(
        applied({ base, workspace: two, agent: three }, [2], [1]),
        L('A', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'),
      );
    });

    it('an accepted hunk already there changes nothing; unknown indices are ignored', () => {
      const one = applied(input, [0]);
      const again = applyHunks({ base, workspace: one, agent: three }, { accept: [0, 7, -1] });
      assert.ok(again.ok);
      assert.equal(again.changed, false);
      assert.equal(again.text, one);
    });

    it('an accepted conflict is written with conflict markers, the other hunks clean', () => {
      const workspace = L('a', 'b', 'c', 'd', 'mine', 'f', 'g', 'h', 'i');
      const r = applyHunks({ base, workspace, agent: three }, { accept: [1] });
      assert.ok(r.ok);
      assert.equal(r.conflicts.length, 1);
      assert.equal(
        r.text,
        L(
          'a',
          'b',
          'c',
          'd',
          M.ours,
          'mine',
          M.base,
          'e',
          M.separator,
          'E',
          'e2',
          M.theirs,
          'f',
          'g',
          'h',
          'i',
        ),
      );
      // The pending hunks next to it stay out.
      const clean = applyHunks({ base, workspace, agent: three }, { accept: [0] });
      assert.ok(clean.ok);
      assert.deepEqual(clean.conflicts, []);
      assert.equal(clean.text, L('A', 'b', 'c', 'd', 'mine', 'f', 'g', 'h', 'i'));
    });

    it('keeps a CRLF workspace’s endings and its byte order mark', () => {
      const crlf = '\uFEFF' + base.replace(/\n/g, '\r\n');
      assert.equal(
        applied({ base, workspace: crlf, agent: three }, [1]),
        '\uFEFF' + L('a', 'b', 'c', 'd', 'E', 'e2', 'f', 'g', 'h', 'i').replace(/\n/g, '\r\n'),
      );
    });

    it('no trailing newline: a hunk at the end brings the agent’s, one elsewhere keeps the workspace’s', () => {
      const b = 'a\nb\nc';
      const t = 'A\nb\nc\nd\n';
      assert.deepEqual(states({ base: b, workspace: b, agent: t }), ['pending', 'pending']);
      assert.equal(applied({ base: b, workspace: b, agent: t }, [0]), 'A\nb\nc');
      assert.equal(applied({ base: b, workspace: b, agent: t }, [1]), 'a\nb\nc\nd\n');
      assert.equal(applied({ base: b, workspace: b, agent: t }, [0, 1]), t);
      // The agent's last line without an ending, inserted before the base's last line.
      assert.equal(applied({ base: L('a', 'z'), workspace: L('a', 'z'), agent: 'a\nm\nz' }, [0]), 'a\nm\nz');
    });

    it('empty files: an agent-created file accepted is the agent’s text; emptied by the agent, every line goes', () => {
      assert.equal(applied({ agent: L('x', 'y') }, [0]), L('x', 'y'));
      assert.equal(applied({ base: L('a', 'b'), workspace: L('a', 'b'), agent: '' }, [0]), '');
      assert.equal(applied({ base: '', workspace: '', agent: L('n') }, [0]), L('n'));
    });

    it('without a base, accepting one hunk of the workspace → agent diff changes only that', () => {
      assert.equal(
        applied({ workspace: agent, agent: three }, [1]),
        L('a', 'B', 'c', 'd', 'E', 'e2', 'f', 'g', 'h', 'i', 'j'),
      );
    });

    it('randomly: hunks accepted one by one in any order end as Apply’s merge, the count going up by one', () => {
      const rnd = seeded(24);
      for (let round = 0; round < 40; round++) {
        const b = Array.from({ length: 30 }, (_, k) => `line ${k}`);
        const t = [...b];
        // Up to 6 separated edits of the agent, from the end so indices stay valid.
        for (let at = 28 - (rnd() % 4); at > 0; at -= 4 + (rnd() % 3)) {
          const kind = rnd() % 3;
          if (kind === 0) t[at] = `${t[at]} (agent)`;
          else if (kind === 1) t.splice(at, 0, `new ${at}`);
          else t.splice(at, 1);
        }
        const input = { base: L(...b), workspace: L(...b), agent: L(...t) };
        const first = agentHunks(input);
        assert.ok(first.ok);
        const order = first.hunks.map((h) => h.index).sort(() => (rnd() % 2 ? 1 : -1));
        let workspace = input.workspace;
        for (const [n, k] of order.entries()) {
          workspace = applied({ ...input, workspace }, [k]);
          const now = agentHunks({ ...input, workspace });
          assert.ok(now.ok);
          assert.deepEqual(hunkCounts(now.hunks), { applied: n + 1, total: first.hunks.length });
          assert.equal(now.hunks[k].state, 'applied');
        }
        const whole = merge3({ base: input.base, ours: input.workspace, theirs: input.agent });
        assert.ok(!whole.binary);
        assert.equal(workspace, whole.text);
      }
    });
  });
});
