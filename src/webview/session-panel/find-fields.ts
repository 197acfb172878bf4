/**
 * What Find in a session searches: the store's transcript as `core/search` fields (requests,
 * answers, thoughts, tool names, parameters, logs and outputs, file names, the plan, errors), kept
 * current from the store's changes: a block that changed is flattened again, the others are kept.
 * Pure: no DOM.
 */
import { blockFields, type SearchField } from '../../core/search/fields';
import { blockKey, type StoreChanges, type Store, type TurnState } from './state';

/** The request's fields (its text and files): before the turn's blocks. */
function headFields(t: TurnState): SearchField[] {
  const turnId = t.header.id;
  const out: SearchField[] = [];
  const u = t.header.userMessage;
  if (u.text) out.push({ address: { turnId, kind: 'user', index: 0 }, text: u.text });
  u.files.forEach((f, index) => {
    if (f.name) out.push({ address: { turnId, kind: 'file', index }, text: f.name });
  });
  return out;
}

/** The plan, the changed files and the error: after the turn's blocks. */
function tailFields(t: TurnState): SearchField[] {
  const turnId = t.header.id;
  const out: SearchField[] = [];
  t.plan?.todos.forEach((todo, index) => {
    if (todo.content) out.push({ address: { turnId, kind: 'plan', index }, text: todo.content });
  });
  let n = t.header.userMessage.files.length;
  for (const f of t.files)
    out.push({ address: { turnId, kind: 'file', index: n++ }, text: f.path || f.name });
  const e = t.header.error;
  const err = e ? [e.message, e.code].filter(Boolean).join(' ') : '';
  if (err) out.push({ address: { turnId, kind: 'error', index: 0 }, text: err });
  if (t.header.abortReason)
    out.push({ address: { turnId, kind: 'error', index: 1 }, text: t.header.abortReason });
  return out;
}

export class FindFields {
  private readonly blocks = new Map<string, SearchField[]>();
  private readonly turns = new Map<string, { head: SearchField[]; tail: SearchField[] }>();
  /** Bumped whenever a field may have changed: a find done at an older version is stale. */
  version = 0;

  constructor(private readonly store: Store) {}

  /** Takes what changed in the store (the same changes the transcript view takes). */
  update(c: StoreChanges): void {
    if (c.reset) {
      this.blocks.clear();
      this.turns.clear();
      this.version++;
      return;
    }
    const keys = new Set([...c.blocks, ...c.appended, ...c.logAppends.map((a) => a.key)]);
    for (const k of keys) this.blocks.delete(k);
    for (const id of new Set([...c.turns, ...c.plans, ...c.files])) this.turns.delete(id);
    if (keys.size > 0 || c.turns.size + c.plans.size + c.files.size > 0 || c.structure) this.version++;
  }

  /** Every field, in reading order. */
  *fields(): Generator<SearchField> {
    for (const t of this.store.turns) {
      const id = t.header.id;
      let parts = this.turns.get(id);
      if (!parts) {
        parts = { head: headFields(t), tail: tailFields(t) };
        this.turns.set(id, parts);
      }
      yield* parts.head;
      for (const b of t.blocks) {
        const key = blockKey(id, b.id);
        let f = this.blocks.get(key);
        if (!f) {
          f = blockFields(id, b);
          this.blocks.set(key, f);
        }
        yield* f;
      }
      yield* parts.tail;
    }
  }
}
