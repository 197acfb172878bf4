/**
 * Factories for the webview tests: host messages built the way the panel host builds them, by folding
 * recorded agent events through the real reducer and turning each ChangeSet into deltas.
 */
import type { AgentEvent } from '../../../../src/core/client/types';
import type { ChangeSet, ReducerOptions, Transcript, Turn } from '../../../../src/core/transcript/model';
import { applyEvent, findTurn } from '../../../../src/core/transcript/reducer';
import type {
  ComposerState,
  Delta,
  HostMessage,
  TurnHeader,
  TurnView,
} from '../../../../src/protocol/session-panel/messages';
import { isText, type VNode } from '../../../../src/webview/shared/vnode';
import { AGENT, liveTranscript, loadFixture } from '../../core/transcript/helpers';

export { AGENT, loadFixture };

export function header(t: Turn): TurnHeader {
  const h: TurnHeader = {
    id: t.agentMessageId,
    userMessage: structuredClone(t.userMessage),
    status: t.status,
    hasContinuation: !!t.continuation,
    createdAt: t.userMessage.createdAt,
  };
  if (t.phase !== undefined) h.phase = t.phase;
  if (t.etaSeconds !== undefined) h.etaSeconds = t.etaSeconds;
  if (t.etaAt !== undefined) h.etaAt = t.etaAt;
  if (t.queuePosition !== undefined) h.queuePosition = t.queuePosition;
  if (t.error !== undefined) h.error = { ...t.error };
  if (t.abortReason !== undefined) h.abortReason = t.abortReason;
  if (t.needsInput !== undefined) h.needsInput = t.needsInput;
  if (t.asks !== undefined) h.asks = t.asks;
  if (t.contextUsage !== undefined) h.contextUsage = { ...t.contextUsage };
  return h;
}

export function turnView(t: Turn): TurnView {
  const v: TurnView = { ...header(t), blocks: structuredClone(t.blocks), files: structuredClone(t.files) };
  if (t.plan) v.plan = structuredClone(t.plan);
  return v;
}

/** The deltas a host posts for one ChangeSet (blocks copied: the reducer mutates in place). */
export function deltasOf(tr: Transcript, cs: ChangeSet): Delta[] {
  const turn = findTurn(tr, cs.turnId);
  if (cs.ignored || !turn) return [];
  const out: Delta[] = [];
  const turnId = cs.turnId;
  if (cs.turnCreated || cs.statusChanged || cs.turnInfoChanged)
    out.push({ type: 'turn', turn: header(turn) });
  const block = (id: string) => structuredClone(turn.blocks.find((b) => b.id === id)!);
  for (const id of cs.blocksCreated) out.push({ type: 'block', turnId, block: block(id) });
  for (const id of cs.blocksUpdated) {
    const appends = cs.appends.filter((a) => a.blockId === id);
    if (appends.length === 0) out.push({ type: 'block', turnId, block: block(id) });
    for (const a of appends) {
      const d: Delta = { type: 'append', turnId, blockId: id, text: a.text };
      if (a.stream) d.stream = a.stream;
      out.push(d);
    }
  }
  if (cs.planChanged && turn.plan) out.push({ type: 'plan', turnId, plan: structuredClone(turn.plan) });
  if (cs.filesChanged) out.push({ type: 'files', turnId, files: structuredClone(turn.files) });
  return out;
}

export function composer(patch: Partial<ComposerState> = {}): ComposerState {
  return {
    mode: 'code',
    effort: 'fast',
    attachments: [],
    running: false,
    queued: 0,
    sending: false,
    ...patch,
  };
}

export function initMessage(
  tr: Transcript,
  seq = 1,
  patch: Partial<Extract<HostMessage, { type: 'init' }>> = {},
): Extract<HostMessage, { type: 'init' }> {
  return {
    type: 'init',
    seq,
    session: { sessionId: tr.sessionId, title: 'Whitespace normalizer', service: 'agents.example.test' },
    turns: tr.turns.map(turnView),
    composer: composer({ running: true }),
    connection: { state: 'live' },
    notice: null,
    l10n: null,
    ...patch,
  };
}

/** A live turn fed event by event: the `init` before any event, then one batch per `perBatch` events. */
export function scenario(
  events: AgentEvent[],
  perBatch = 3,
  options?: ReducerOptions,
): {
  init: Extract<HostMessage, { type: 'init' }>;
  batches: Extract<HostMessage, { type: 'batch' }>[];
  transcript: Transcript;
} {
  const transcript = liveTranscript();
  const init = initMessage(transcript, 1);
  const batches: Extract<HostMessage, { type: 'batch' }>[] = [];
  let seq = 1;
  for (let i = 0; i < events.length; i += perBatch) {
    const deltas = events
      .slice(i, i + perBatch)
      .flatMap((ev) => deltasOf(transcript, applyEvent(transcript, AGENT, ev, options)));
    batches.push({ type: 'batch', seq: ++seq, deltas });
  }
  return { init, batches, transcript };
}

/** A compact HTML-like rendering of a virtual tree, for readable expectations (text escaped). */
export function html(nodes: readonly VNode[]): string {
  return nodes
    .map((n) => {
      if (isText(n)) return n.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const attrs = Object.entries(n.attrs)
        .map(([k, v]) => ` ${k}="${v.replace(/"/g, '&quot;')}"`)
        .join('');
      return `<${n.tag}${attrs}>${html(n.children)}</${n.tag}>`;
    })
    .join('');
}
