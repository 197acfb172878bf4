/**
 * Wire shapes of sessions and messages in both variants: `current` (sessionId, events) and
 * `legacy` (chatId, blocks + status, state snapshots).
 */
import type { AgentEvent, LegacyBlock } from '../../src/core/client/types';
import type { StoredMessage, StoredSession } from './store';

export type Variant = 'current' | 'legacy';

export function sessionJson(s: StoredSession, variant: Variant): Record<string, unknown> {
  const { messages: _m, id, sessionId, ...rest } = s;
  return variant === 'legacy' ? { id, chatId: sessionId, ...rest } : { id, sessionId, ...rest };
}

export function messageJson(m: StoredMessage, variant: Variant): Record<string, unknown> {
  const base = {
    id: m.id,
    type: m.type,
    content: m.content,
    createdAt: m.createdAt,
    inputMode: m.inputMode,
    aborted: m.aborted,
    files: m.files,
  };
  if (variant === 'current') return { ...base, sessionId: m.sessionId, events: m.events };
  const legacy: Record<string, unknown> = { ...base, chatId: m.sessionId, blocks: foldBlocks(m.events) };
  if (m.type === 'agent') legacy.status = legacyStatus(m);
  return legacy;
}

/** `status: {phase, eta_seconds, error}` of a legacy agent message. */
export function legacyStatus(m: StoredMessage): { phase: string; eta_seconds: number; error: string | null } {
  let eta = 0;
  for (const e of m.events) if (e.kind === 'task.phase') eta = Number(e.payload.eta_seconds ?? 0);
  const done = m.phase === 'completed' || m.phase === 'aborted' || m.phase === 'error';
  return { phase: m.phase ?? 'completed', eta_seconds: done ? 0 : eta, error: m.error ?? null };
}

/** The blocks a legacy client sees: events folded by block id. */
export function foldBlocks(events: AgentEvent[]): LegacyBlock[] {
  const blocks = new Map<string, LegacyBlock>();
  const get = (id: string, type: string): LegacyBlock => {
    let b = blocks.get(id);
    if (!b) blocks.set(id, (b = { id, type }));
    return b;
  };
  for (const e of events) {
    const id = e.block_id;
    if (!id) continue;
    const p = e.payload;
    switch (e.kind) {
      case 'block.create':
        get(id, String(p.type ?? 'markdown')).content ??= '';
        break;
      case 'markdown.chunk': {
        const b = get(id, 'markdown');
        b.content = (b.content ?? '') + String(p.delta ?? '');
        break;
      }
      case 'block.update':
        Object.assign(get(id, 'markdown'), p.patch as object);
        break;
      case 'thought':
        get(id, 'thought').content = (get(id, 'thought').content ?? '') + String(p.thought ?? '');
        break;
      case 'text':
        get(id, 'text').content = String(p.text ?? '');
        break;
      case 'tool.start':
        get(id, 'tool').tool_name = p.tool_name;
        break;
      case 'tool.parameters':
        get(id, 'tool').parameters = p.parameters;
        break;
      case 'tool.log': {
        const b = get(id, 'tool');
        b.logs = [...((b.logs as unknown[]) ?? []), { stream: p.stream, data: p.data }];
        break;
      }
      case 'tool.result':
        Object.assign(get(id, 'tool'), { status: p.status, output: p.output });
        break;
      case 'plan.update':
        get(id, 'plan').todos = (p.patch as { todos?: unknown }).todos;
        break;
      default:
        break;
    }
  }
  return [...blocks.values()];
}

/**
 * The blocks of a live `state.snapshot`: a summary in a shape of its own, with fields and block
 * types Den does not know. Tool logs are `output_chunks` with timing fields; the kinds the legacy
 * fold leaves out come as blocks of unknown types (`focus`, `context_usage`, `sandbox_files`).
 */
export function snapshotBlocks(events: AgentEvent[]): LegacyBlock[] {
  const blocks = foldBlocks(events).map((b): LegacyBlock => {
    if (b.type !== 'tool') return b;
    const { logs, ...rest } = b;
    const own = events.filter((e) => e.block_id === b.id);
    const chunks = Array.isArray(logs) ? (logs as { stream: string; data: string }[]) : [];
    return {
      ...rest,
      output_chunks: chunks.map((l) => ({ stream: l.stream, chunk: l.data })),
      started_at: own[0]?.timestamp ?? 0,
      duration_ms: (own.at(-1)?.timestamp ?? 0) - (own[0]?.timestamp ?? 0),
    };
  });
  for (const e of events) {
    const p = e.payload;
    if (e.kind === 'focus') blocks.push({ id: `focus:${e.event_id}`, type: 'focus', ...p });
    else if (e.kind === 'context.usage')
      blocks.push({ id: `usage:${e.event_id}`, type: 'context_usage', ...p });
    else if (e.kind === 'sandbox.snapshot') {
      const files = Object.keys((p.snapshot as Record<string, unknown> | undefined) ?? {});
      blocks.push({ id: `sandbox:${e.event_id}`, type: 'sandbox_files', files, deleted: p.deleted ?? [] });
    }
  }
  return blocks;
}

/** The `state.snapshot` frame sent after the ack: a summary of the message's stored events. */
export function stateSnapshot(m: StoredMessage): {
  kind: 'state.snapshot';
  message_id: string;
  timestamp: number;
  payload: {
    status: { phase: string; eta_seconds: number };
    blocks: LegacyBlock[];
    last_event_id: number;
    last_stream_entry_id: string;
  };
} {
  const last = m.events.at(-1);
  const { phase, eta_seconds } = legacyStatus(m);
  return {
    kind: 'state.snapshot',
    message_id: m.id,
    timestamp: Date.now(),
    payload: {
      status: { phase, eta_seconds },
      blocks: snapshotBlocks(m.events),
      last_event_id: last?.event_id ?? 0,
      last_stream_entry_id: last?.stream_entry_id ?? '0-0',
    },
  };
}
