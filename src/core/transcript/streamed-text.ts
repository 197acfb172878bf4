/**
 * The text of a block that grows by streamed chunks (`markdown.chunk`, `thought`), held so that the
 * chunks die young.
 *
 * `text += chunk` keeps every chunk alive, each behind a rope node of its own, until the text is
 * flattened: at 100,000 chunks a growing answer is 200,000 small objects that survive every
 * scavenge and are copied twice before they reach the old generation (a third of the reducer's
 * time in `npm run bench -- pipeline` was garbage collection). Here a block keeps its latest chunks
 * in a short list and joins them into its text every `JOIN_EVERY` chunks or when the text is read,
 * whichever comes first: the joined piece is one flat string, and the chunks, joined within a few
 * events of their arrival, are garbage before the next scavenge.
 *
 * The block's `text` stays a plain enumerable string property for every reader: an accessor that
 * joins what is pending, so a read always sees every chunk appended so far (JSON, spreads,
 * `structuredClone` and deep equality see a string). The list lives behind a non-enumerable symbol:
 * a copy of the block (spread, JSON, `structuredClone`) is plain data and holds none of it.
 */
/** Chunks held apart at most before they are joined into the text. */
export const JOIN_EVERY = 64;

const PARTS = Symbol('streamed text');

interface Parts {
  /** The text up to the pending chunks. */
  text: string;
  /** Chunks appended since, in order. */
  pending: string[];
}

type Streamed = { text: string; [PARTS]?: Parts };

function joined(p: Parts): string {
  if (p.pending.length > 0) {
    p.text += p.pending.join('');
    p.pending = [];
  }
  return p.text;
}

/**
 * The `text` of every streamed block: one accessor shared by all (per-block closures would turn
 * each block into a slow dictionary-mode object), reading the block's parts through `this`.
 */
const TEXT: PropertyDescriptor = {
  get(this: Streamed): string {
    return joined(this[PARTS] as Parts);
  },
  set(this: Streamed, v: string) {
    const p = this[PARTS] as Parts;
    p.text = v;
    if (p.pending.length > 0) p.pending = [];
  },
  enumerable: true,
  configurable: true,
};

/** Gives a block streamed text (its parts behind a non-enumerable key: copies do not carry them). */
function stream(b: object, text: string): Parts {
  const parts: Parts = { text, pending: [] };
  Object.defineProperty(b, PARTS, { value: parts });
  Object.defineProperty(b, 'text', TEXT);
  return parts;
}

/**
 * A new answer or reasoning block (`markdown`, `thought`; not final) whose text grows by
 * `appendText`.
 */
export function streamedBlock<T extends 'markdown' | 'thought'>(
  type: T,
  id: string,
  text: string,
): { type: T; id: string; text: string; final: boolean } {
  // `text` is defined before `final`, in the place a plain block has it (JSON keeps the order).
  const b = { type, id } as { type: T; id: string; text: string; final: boolean };
  stream(b, text);
  b.final = false;
  return b;
}

/**
 * Appends a chunk to a block's text. A block that holds plain text (restored from a cache snapshot,
 * copied, or built by hand) is turned into a streamed one in place on its first append; its `text`
 * keeps its place among the block's keys.
 */
export function appendText(b: { text: string }, chunk: string): void {
  const s = b as Streamed;
  const p = s[PARTS] ?? stream(s, s.text);
  p.pending.push(chunk);
  if (p.pending.length >= JOIN_EVERY) joined(p);
}

/** Chunks appended to a block and not yet joined into its text (for tests). */
export function pendingChunks(b: { text: string }): number {
  return (b as Streamed)[PARTS]?.pending.length ?? 0;
}
