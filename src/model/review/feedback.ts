/**
 * Line comments on the agent's files, and the follow-up turn they become (`docs/review-and-apply.md`,
 * "Comments that become the next turn"). A thread is a range of one file of a session with the
 * person's comments on it; **Send Feedback** sends every open thread of a session as one `code` turn
 * in the text shape below; a thread whose lines the agent then changed is marked addressed.
 *
 * The feedback text (stable: the emulator reads it, `parseFeedback`):
 *
 * ```text
 * Review feedback on your changes: 2 comments. Change the code each comment points at, then say what you changed.
 *
 * [1] src/parser.ts, lines 12-14
 * > the first commented line
 * > …
 * Comment: what the person wrote
 *   (a comment's further lines, indented by two spaces)
 *
 * [2] src/util.ts, line 3
 * > the commented line
 * Comment: …
 *
 * Overall: the optional note
 * ```
 *
 * Paths are the session's (as the agent named the file); line numbers are 1-based, those of the
 * document the comment was made on; the quoted lines (`> `, at most `MAX_QUOTED_LINES`) say exactly
 * which code is meant. No `vscode` import.
 */
import {
  arrayOf,
  isFiniteNumber,
  isString,
  object,
  oneOf,
  optional,
  type Infer,
} from '../../core/shared/schema';

/** The states of a thread: `open` goes in the next feedback; `addressed`: the agent changed its lines. */
export const THREAD_STATES = ['open', 'resolved', 'addressed'] as const;
export type ThreadState = (typeof THREAD_STATES)[number];

const isComment = object({ id: isString, body: isString, at: isFiniteNumber });

/** One thread as Den keeps it (workspace state), per session. */
export const isThreadRecord = object({
  id: isString,
  sessionId: isString,
  /** The file as the session names it (the agent's path). */
  path: isString,
  /** The document the thread is on (a `den-session:` URI, or the workspace file's). */
  uri: isString,
  /** 0-based, inclusive. */
  startLine: isFiniteNumber,
  endLine: isFiniteNumber,
  /** The commented lines as they read when the thread was made. */
  quote: arrayOf(isString),
  comments: arrayOf(isComment),
  state: oneOf(THREAD_STATES),
  /** When the thread last went out in a feedback turn (Unix ms). */
  sentAt: optional(isFiniteNumber),
});
export type ThreadRecord = Infer<typeof isThreadRecord>;

/** Most quoted lines per comment in the feedback text; longer ranges say how many more. */
export const MAX_QUOTED_LINES = 20;
/** Most threads Den keeps for one workspace (the oldest resolved or addressed go first). */
export const MAX_THREADS = 2_000;

/** The threads a stored value holds: well-formed ones only, never more than `MAX_THREADS`. */
export function readThreads(stored: unknown): ThreadRecord[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((t): t is ThreadRecord => isThreadRecord(t) && t.startLine >= 0 && t.endLine >= t.startLine)
    .slice(-MAX_THREADS);
}

/** Threads to keep, bounded: past `MAX_THREADS` the oldest closed ones go, then the oldest open. */
export function boundThreads(threads: readonly ThreadRecord[]): ThreadRecord[] {
  let extra = threads.length - MAX_THREADS;
  if (extra <= 0) return [...threads];
  const drop = new Set<ThreadRecord>();
  for (const t of threads) {
    if (extra === 0) break;
    if (t.state !== 'open') {
      drop.add(t);
      extra--;
    }
  }
  const kept = threads.filter((t) => !drop.has(t));
  return kept.slice(kept.length - MAX_THREADS);
}

/** The open threads of a session, in the order the feedback lists them (path, then line). */
export function openThreads(threads: readonly ThreadRecord[], sessionId: string): ThreadRecord[] {
  return threads
    .filter((t) => t.sessionId === sessionId && t.state === 'open' && t.comments.length > 0)
    .sort((a, b) => (a.path === b.path ? a.startLine - b.startLine : a.path < b.path ? -1 : 1));
}

const HEAD = /^\[(\d+)\] (.+), lines? (\d+)(?:-(\d+))?$/;

/** The text of one follow-up turn: every thread given (see the module comment), and the note. */
export function feedbackText(threads: readonly ThreadRecord[], note?: string): string {
  const n = threads.length;
  const out = [
    `Review feedback on your changes: ${n} comment${n === 1 ? '' : 's'}. Change the code each comment points at, then say what you changed.`,
  ];
  threads.forEach((t, i) => {
    const first = t.startLine + 1;
    const last = t.endLine + 1;
    out.push('', `[${i + 1}] ${t.path}, ${first === last ? `line ${first}` : `lines ${first}-${last}`}`);
    const shown = t.quote.slice(0, MAX_QUOTED_LINES);
    for (const line of shown) out.push(`> ${line}`);
    if (t.quote.length > shown.length) out.push(`> … (${t.quote.length - shown.length} more lines)`);
    const body = t.comments
      .map((c) => c.body.trim())
      .filter(Boolean)
      .join('\n\n');
    const [head = '', ...rest] = body.split(/\r?\n/);
    out.push(`Comment: ${head}`, ...rest.map((l) => `  ${l}`));
  });
  if (note?.trim()) out.push('', `Overall: ${note.trim()}`);
  return out.join('\n');
}

/** One comment read back from a feedback text. */
export interface FeedbackEntry {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  quote: string[];
  comment: string;
}

/** The comments of a feedback text (`feedbackText`'s shape); none when the text is not one. */
export function parseFeedback(text: string): { entries: FeedbackEntry[]; note?: string } {
  const lines = text.split(/\r?\n/);
  if (!lines[0]?.startsWith('Review feedback on your changes:')) return { entries: [] };
  const entries: FeedbackEntry[] = [];
  let note: string | undefined;
  let cur: FeedbackEntry | undefined;
  let inComment = false;
  for (const line of lines.slice(1)) {
    const head = HEAD.exec(line);
    if (head) {
      cur = {
        path: head[2],
        startLine: Number(head[3]),
        endLine: Number(head[4] ?? head[3]),
        quote: [],
        comment: '',
      };
      entries.push(cur);
      inComment = false;
    } else if (line.startsWith('Overall: ')) {
      note = line.slice('Overall: '.length);
      cur = undefined;
    } else if (cur && !inComment && line.startsWith('> ')) {
      if (!/^> … \(\d+ more lines\)$/.test(line)) cur.quote.push(line.slice(2));
    } else if (cur && line.startsWith('Comment: ')) {
      cur.comment = line.slice('Comment: '.length);
      inComment = true;
    } else if (cur && inComment && line.startsWith('  ')) {
      cur.comment += `\n${line.slice(2)}`;
    } else if (note !== undefined && line) {
      note += `\n${line}`;
    }
  }
  return note === undefined ? { entries } : { entries, note };
}

/**
 * Whether the agent changed a thread's lines: the file is gone, or the quoted lines no longer stand
 * together anywhere in it (they were edited, not just moved). A quote of blank lines only says
 * nothing either way: not addressed.
 */
export function isAddressed(thread: Pick<ThreadRecord, 'quote'>, current: string | undefined): boolean {
  if (current === undefined) return true;
  const quote = thread.quote.map((l) => l.trimEnd());
  if (!quote.some((l) => l.trim())) return false;
  const lines = current.split(/\r?\n/).map((l) => l.trimEnd());
  for (let i = 0; i + quote.length <= lines.length; i++) {
    if (quote.every((q, k) => lines[i + k] === q)) return false;
  }
  return true;
}
