/**
 * What a webview would show after applying the host's posts, by the protocol alone: used to check
 * that the deltas the host sends rebuild exactly the host's transcript (unit and ext tests).
 */
import assert from 'node:assert/strict';
import type { Block, Transcript } from '../../../../src/core/transcript/model';
import type {
  ComposerState,
  ConnectionView,
  Delta,
  FileStatusView,
  HostMessage,
  Notice,
  TurnView,
} from '../../../../src/protocol/session-panel/messages';
import type { ReviewedView } from '../../../../src/protocol/session-panel/reviewed';
import { transcriptViews } from '../../../../src/model/session/turn-view';

export class ViewMirror {
  lastSeq: number | null = null;
  turns: TurnView[] = [];
  composer?: ComposerState;
  connection?: ConnectionView;
  notice: Notice | null = null;
  title = '';
  fileStatus: FileStatusView[] = [];
  reviewComments = 0;
  preview = false;
  reviewed: ReviewedView[] = [];
  /** How the composer's sends ended, in the order told. */
  sendResults: { sendId: string; outcome: string }[] = [];
  readonly messages: HostMessage[] = [];

  /** Applies one post, as `postMessage` delivers it (a JSON copy). Throws on a seq gap. */
  apply(posted: HostMessage): void {
    const m = JSON.parse(JSON.stringify(posted)) as HostMessage;
    this.messages.push(m);
    if (m.type !== 'init' && this.lastSeq !== null) {
      assert.equal(m.seq, this.lastSeq + 1, `seq gap: ${this.lastSeq} then ${m.seq}`);
    }
    this.lastSeq = m.seq;
    if (m.type === 'init') {
      this.turns = m.turns;
      this.composer = m.composer;
      this.connection = m.connection;
      this.notice = m.notice;
      this.title = m.session.title;
      this.fileStatus = m.fileStatus ?? [];
      this.reviewComments = m.reviewComments ?? 0;
      this.preview = m.preview ?? false;
      this.reviewed = m.reviewed ?? [];
    } else if (m.type === 'batch') {
      for (const d of m.deltas) this.delta(d);
    }
  }

  /** Posts of one type. */
  count(type: HostMessage['type']): number {
    return this.messages.filter((m) => m.type === type).length;
  }

  /** Asserts the view equals the transcript's turns (JSON-wise). */
  assertShows(t: Transcript, message?: string): void {
    assert.deepEqual(this.turns, JSON.parse(JSON.stringify(transcriptViews(t))), message);
  }

  private find(id: string): TurnView | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) if (this.turns[i].id === id) return this.turns[i];
    return undefined;
  }

  private turn(id: string): TurnView {
    const t = this.find(id);
    if (!t) throw new Error(`a delta for unknown turn ${id}`);
    return t;
  }

  private delta(d: Delta): void {
    switch (d.type) {
      case 'turn': {
        const known = this.find(d.turn.id);
        if (known) {
          const { blocks, files, plan } = known;
          for (const k of Object.keys(known)) delete (known as unknown as Record<string, unknown>)[k];
          Object.assign(known, d.turn, { blocks, files }, plan ? { plan } : {});
        } else this.turns.push({ ...d.turn, blocks: [], files: [] });
        return;
      }
      case 'block': {
        const blocks = this.turn(d.turnId).blocks;
        const i = blocks.findIndex((b) => b.id === d.block.id);
        if (i >= 0) blocks[i] = d.block;
        else blocks.push(d.block);
        return;
      }
      case 'blockOrder': {
        const t = this.turn(d.turnId);
        const byId = new Map(t.blocks.map((b) => [b.id, b]));
        t.blocks = d.blockIds.flatMap((id) => {
          const b = byId.get(id);
          return b ? [b] : [];
        });
        return;
      }
      case 'append': {
        const b = this.turn(d.turnId).blocks.find((x) => x.id === d.blockId);
        assert.ok(b, `append to unknown block ${d.blockId}`);
        appendTo(b, d.text, d.stream);
        return;
      }
      case 'plan':
        this.turn(d.turnId).plan = d.plan;
        return;
      case 'files':
        this.turn(d.turnId).files = d.files;
        return;
      case 'composer':
        this.composer = d.composer;
        return;
      case 'connection':
        this.connection = d.connection;
        return;
      case 'notice':
        this.notice = d.notice;
        return;
      case 'title':
        this.title = d.title;
        return;
      case 'fileStatus':
        this.fileStatus = d.files;
        return;
      case 'reviewComments':
        this.reviewComments = d.open;
        return;
      case 'reviewed':
        this.reviewed = d.files;
        return;
      case 'panel':
        this.preview = d.preview;
        return;
      case 'sendResult':
        this.sendResults.push({ sendId: d.sendId, outcome: d.outcome });
        return;
    }
  }
}

function appendTo(b: Block, text: string, stream?: 'stdout' | 'stderr'): void {
  if (b.type === 'tool') {
    assert.ok(stream, 'a log append without a stream');
    const segs = b.log.segments;
    const last = segs[segs.length - 1];
    if (last && last.stream === stream) last.data += text;
    else segs.push({ stream, data: text });
    b.log.chars += text.length;
    return;
  }
  assert.ok('text' in b && b.type !== 'message', `append to a ${b.type} block`);
  b.text += text;
}
