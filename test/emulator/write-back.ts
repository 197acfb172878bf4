/**
 * The agent's write-back of attached workspace files: a coding turn that carries text attachments
 * rewrites each one at its workspace-relative path with a deterministic edit and writes a notes file
 * next to it, so a client can apply the agent's version and merge it with the person's edits.
 *
 * The edit (see the emulator README): a header line on top (`// Reviewed by the agent`, in the
 * file's line-comment syntax), and every line containing `TODO` replaced by
 * `<indent><comment> Done: <what followed TODO>`. The notes file is `<dir>/<name>.notes.md`.
 */
import type { FileInfo } from '../../src/core/client/types';

/** An attachment of a turn, resolved to its content: where it goes and what the client sent. */
export interface AttachedText {
  path: string;
  content: string;
  /** A `selection`: the agent saw a part of the file and writes back that part, edited. */
  part?: boolean;
}

/** The largest attachment the agent rewrites (the emulator keeps upload contents up to 1 MB). */
const MAX_BYTES = 1024 * 1024;

/**
 * The attached workspace text files of a turn: each `files` entry whose content the emulator kept
 * and which reads as UTF-8 text, at the path its `file` reference gives (`references[].attachment`
 * names the file), else at its file name. A `selection` is written back as the part it is (`part`).
 * Non-text files are left out, so are paths that are absolute or climb out (`..`); the first
 * attachment for a path wins.
 */
export function attachedTexts(
  files: readonly FileInfo[],
  references: readonly unknown[],
  content: (key: string) => Buffer | undefined,
): AttachedText[] {
  const refs = references.filter(
    (r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r),
  );
  const out: AttachedText[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const ref = refs.find((r) => r.attachment === f.name);
    if (ref && ref.type !== 'file' && ref.type !== 'selection') continue;
    const bytes = content(f.key);
    if (!bytes || bytes.length > MAX_BYTES || bytes.includes(0)) continue;
    const text = bytes.toString('utf8');
    if (text.includes('\uFFFD')) continue;
    const name = f.name.split('/').pop() ?? f.name;
    const refPath = typeof ref?.path === 'string' ? ref.path : undefined;
    const path = refPath && safeRelative(refPath) ? refPath : safeRelative(name) ? name : undefined;
    if (!path || seen.has(path)) continue;
    seen.add(path);
    out.push({ path, content: text, ...(ref?.type === 'selection' ? { part: true } : {}) });
  }
  return out;
}

function safeRelative(p: string): boolean {
  if (!p || /^[/\\]|^[A-Za-z]:/.test(p) || p.includes('\\')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** The line comment of a file, by its extension. */
function commentOf(path: string): { open: string; close: string } {
  const ext = path.toLowerCase().split('.').pop() ?? '';
  if (['py', 'sh', 'rb', 'yaml', 'yml', 'toml', 'r', 'pl'].includes(ext)) return { open: '#', close: '' };
  if (['md', 'html', 'htm', 'xml', 'svg'].includes(ext)) return { open: '<!--', close: ' -->' };
  if (['sql', 'lua', 'hs'].includes(ext)) return { open: '--', close: '' };
  if (ext === 'css') return { open: '/*', close: ' */' };
  return { open: '//', close: '' };
}

export const REVIEWED_HEADER = 'Reviewed by the agent';

/**
 * The agent's version of an attached file and how many `TODO` lines it implemented. A part (a
 * selection) gets no header: the agent's version is the part it saw, its `TODO` lines done.
 */
export function rewrite(file: AttachedText): { content: string; done: number[] } {
  const { open, close } = commentOf(file.path);
  const eol = file.content.includes('\r\n') ? '\r\n' : '\n';
  const lines = file.content.split(/\r?\n/);
  const done: number[] = [];
  const body = lines.map((line, i) => {
    const at = line.indexOf('TODO');
    if (at < 0) return line;
    done.push(i + 1);
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const rest = line
      .slice(at + 4)
      .replace(/^[\s:]+/, '')
      .replace(/\s*(\*\/|-->)\s*$/, '')
      .trim();
    return `${indent}${open} Done: ${rest || line.trim()}${close}`;
  });
  if (file.part) return { content: body.join(eol), done };
  return { content: `${open} ${REVIEWED_HEADER}${close}${eol}${body.join(eol)}`, done };
}

/** The notes file written next to an attached file: its path and content. */
export function notesFor(file: AttachedText, done: number[]): AttachedText {
  const slash = file.path.lastIndexOf('/');
  const name = file.path.slice(slash + 1);
  const path = `${file.path.slice(0, slash + 1)}${name}.notes.md`;
  const content = [
    `# Notes on ${name}`,
    '',
    file.part ? '- Rewrote the selection you sent.' : '- Added a review header on line 1.',
    done.length
      ? `- Implemented ${done.length} TODO${done.length === 1 ? '' : 's'} (line${done.length === 1 ? '' : 's'} ${done.join(', ')} of your version).`
      : '- Found no TODO to implement.',
    '',
  ].join('\n');
  return { path, content };
}

/**
 * A workspace file for trying the round trip (the demo's sample, the round-trip tests' file): its
 * line 3 is a `TODO` the agent implements, line 8 a place to edit that merges cleanly.
 */
export const ROUND_TRIP_SAMPLE: AttachedText = {
  path: 'src/total.ts',
  content: [
    'export function total(items: number[]): number {',
    '  let sum = 0;',
    '  // TODO: add up the items',
    '  return sum;',
    '}',
    '',
    'export function label(name: string): string {',
    '  return `Total for ${name}`;',
    '}',
    '',
  ].join('\n'),
};

/** One review comment a feedback turn addresses (`src/model/review/feedback.ts`'s entries). */
export interface CommentToAddress {
  startLine: number;
  endLine: number;
  quote: string[];
  comment: string;
}

/**
 * The agent's answer to line comments on a file: each comment's lines (found by their quote, else
 * by their line numbers) get ` <comment> Review: <the comment's first line>` at their end, so the
 * commented lines change and everything else stays. Returns the new content and how many comments
 * it found a place for. CRLF files keep CRLF.
 */
export function addressComments(
  path: string,
  content: string,
  comments: readonly CommentToAddress[],
): { content: string; changed: number } {
  const { open, close } = commentOf(path);
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const lines = content.split(/\r?\n/);
  const touched = new Set<number>();
  let changed = 0;
  for (const c of comments) {
    const quote = c.quote.map((l) => l.trimEnd());
    let at = -1;
    for (let i = 0; quote.length > 0 && i + quote.length <= lines.length && at < 0; i++) {
      if (quote.every((q, k) => lines[i + k].trimEnd() === q)) at = i;
    }
    const first = at >= 0 ? at : c.startLine - 1;
    const last = at >= 0 ? at + quote.length - 1 : c.endLine - 1;
    if (first < 0 || last >= lines.length) continue;
    const note = c.comment.split('\n')[0].trim();
    for (let i = first; i <= last; i++) {
      if (touched.has(i)) continue;
      touched.add(i);
      lines[i] = `${lines[i].trimEnd()} ${open} Review: ${note}${close}`.trimStart();
    }
    changed++;
  }
  return { content: lines.join(eol), changed };
}

/** A person's file with two TODOs far apart: the agent's write-back makes three separate hunks of it. */
export const TWO_TODOS_SAMPLE = [
  'export function a(): number {',
  '  // TODO: first',
  '  return 1;',
  '}',
  '',
  'export function b(): number {',
  '  return 2;',
  '}',
  '',
  'export function c(): number {',
  '  // TODO: second',
  '  return 3;',
  '}',
  '',
].join('\n');
