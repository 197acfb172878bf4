import { l10n } from '../shared/l10n';
/**
 * Whether a path the agent's sandbox names (`src/a.ts`, `./src/a.ts`, `/workspace/src/a.ts`) may
 * become a file inside a workspace folder, and which relative path it becomes. The rules are the
 * same on every platform: a name Windows would misread is refused on Linux too, so what Den writes
 * works for everyone who checks the folder out. This looks at the text only; `real-path.ts` checks
 * where the path really leads (symbolic links) once a folder is chosen. Pure; imports only `l10n`.
 */

export type PathRefusal =
  | 'empty'
  | 'too-long'
  | 'control-character'
  | 'invisible-character'
  | 'invalid-character'
  | 'look-alike'
  | 'url'
  | 'drive'
  | 'unc'
  | 'home'
  | 'outside-sandbox'
  | 'traversal'
  | 'encoded'
  | 'empty-segment'
  | 'reserved-character'
  | 'device-name'
  | 'trailing-dot-or-space'
  | 'short-name'
  | 'git-folder';

export type SafePath =
  /** `path`: relative, `/`-separated, no `.` or `..`; `segments`: its names. */
  | { ok: true; path: string; segments: string[] }
  /** `message` names the path (with invisible characters shown as escapes) and says why. */
  | { ok: false; reason: PathRefusal; message: string };

export interface PathRules {
  /**
   * Absolute sandbox folders that stand for the workspace folder: `/workspace/src/a.ts` becomes
   * `src/a.ts`; any other absolute path is refused. The service does not document its sandbox's
   * layout; the default (`/workspace`, `/home/user`) is an assumption.
   */
  sandboxRoots?: readonly string[];
  /** Longest path accepted, in characters (default 1,024). */
  maxLength?: number;
  /** Longest name accepted, in UTF-8 bytes (default 255, what most file systems allow). */
  maxSegmentBytes?: number;
}

export const DEFAULT_SANDBOX_ROOTS: readonly string[] = ['/workspace', '/home/user'];

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Zero-width, joiners, text direction, fillers, variation selectors, byte order mark, tags. */
const INVISIBLE =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udc7f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters that look like `.`, `/`, `\` or `:` without normalising to one (NFKC catches the rest). */
const LOOK_ALIKES = new Set(
  '\u2024\u2025\u2026\u3002\uff61\u2215\u2044\u29f8\u2571\u27cb\u1735\u0338\u29f5\u29f9\u2216\u2572\u27cd\u2236\ua789\u0589\u05c3\u02d0',
);
const WINDOWS_RESERVED = /[<>:"|?*]/;
const DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$|clock\$)$/i;

/** Why a path is refused, in words (looked up at use time: the bundle is set at activation). */
const WHY: Record<PathRefusal, () => string> = {
  empty: () => l10n.t('it names no file'),
  'too-long': () => l10n.t('it is too long'),
  'control-character': () => l10n.t('it contains a control character'),
  'invisible-character': () => l10n.t('it contains an invisible or text-direction character'),
  'invalid-character': () => l10n.t('it contains an unpaired UTF-16 surrogate'),
  'look-alike': () => l10n.t('it contains a character that looks like ".", "/", "\\" or ":"'),
  url: () => l10n.t('it is a URL, not a path'),
  drive: () => l10n.t('it names a Windows drive'),
  unc: () => l10n.t('it names a network share or a device path'),
  home: () => l10n.t('it points into a home folder ("~")'),
  'outside-sandbox': () => l10n.t('it is absolute and outside the sandbox folder'),
  traversal: () => l10n.t('it goes up out of the folder ("..")'),
  encoded: () => l10n.t('a name in it decodes to ".", ".." or a separator'),
  'empty-segment': () => l10n.t('it has an empty name ("//" or a trailing slash)'),
  'reserved-character': () => l10n.t('a name contains a character Windows does not allow (< > : " | ? *)'),
  'device-name': () => l10n.t('a name is a Windows device name (CON, NUL, COM1, LPT1, …)'),
  'trailing-dot-or-space': () => l10n.t('a name ends with a dot or a space, which Windows drops'),
  'short-name': () => l10n.t('a name looks like a Windows short name (such as GIT~1)'),
  'git-folder': () => l10n.t('it writes into a .git folder'),
};

/** The relative path `raw` stands for inside the workspace folder, or why it may not. */
export function safeRelativePath(raw: string, rules: PathRules = {}): SafePath {
  const maxLength = rules.maxLength ?? 1024;
  const refuse = (reason: PathRefusal, detail?: string): SafePath => ({
    ok: false,
    reason,
    message: l10n.t('Refused the path {0}: {1}.', show(raw), detail ?? WHY[reason]()),
  });
  if (typeof raw !== 'string' || raw.trim() === '') return refuse('empty');
  if (raw.length > maxLength)
    return refuse('too-long', l10n.t('it is longer than {0} characters', maxLength));
  if (CONTROL.test(raw)) return refuse('control-character');
  if (INVISIBLE.test(raw)) return refuse('invisible-character');
  if (LONE_SURROGATE.test(raw)) return refuse('invalid-character');
  const alike = lookAlike(raw);
  if (alike) return refuse('look-alike', `${WHY['look-alike']()} (${codePoint(alike)})`);

  let p = raw.replace(/\\/g, '/');
  if (/^[a-z][a-z0-9+-]+:/i.test(p)) return refuse('url');
  if (/^[a-z]:/i.test(p)) return refuse('drive');
  if (p.startsWith('//')) return refuse('unc');
  if (p.startsWith('~')) return refuse('home');
  if (p.startsWith('/')) {
    const roots = (rules.sandboxRoots ?? DEFAULT_SANDBOX_ROOTS).map((r) => r.replace(/\/+$/, ''));
    if (roots.includes(p.replace(/\/+$/, ''))) return refuse('empty');
    const root = roots.find((r) => r !== '' && p.startsWith(r + '/'));
    if (root === undefined)
      return refuse('outside-sandbox', `${WHY['outside-sandbox']()} (${roots.join(', ')})`);
    p = p.slice(root.length + 1);
  }

  const segments: string[] = [];
  for (const segment of p.split('/')) {
    if (segment === '.') continue;
    const reason = segmentProblem(segment, rules.maxSegmentBytes ?? 255);
    if (reason) {
      const whole = segment === p || reason === 'traversal' || reason === 'empty-segment';
      return refuse(reason, whole ? undefined : l10n.t('{0}, in {1}', WHY[reason](), show(segment)));
    }
    segments.push(segment);
  }
  if (segments.length === 0) return refuse('empty');
  return { ok: true, path: segments.join('/'), segments };
}

/** What is wrong with one name of a path, if anything. */
function segmentProblem(segment: string, maxBytes: number): PathRefusal | undefined {
  if (segment === '') return 'empty-segment';
  if (segment === '..') return 'traversal';
  if (decodesToSomethingElse(segment)) return 'encoded';
  if (utf8Length(segment) > maxBytes) return 'too-long';
  if (WINDOWS_RESERVED.test(segment)) return 'reserved-character';
  if (/[. ]$/.test(segment)) return 'trailing-dot-or-space';
  if (DEVICE.test(segment.split('.')[0].trimEnd())) return 'device-name';
  if (/~\d/.test(segment)) return 'short-name';
  if (segment.toLowerCase() === '.git') return 'git-folder';
  return undefined;
}

/** Whether percent-decoding (up to three times: `%252e`) makes the name `.`, `..` or a path. */
function decodesToSomethingElse(segment: string): boolean {
  let s = segment;
  for (let round = 0; round < 3 && s.includes('%'); round++) {
    try {
      s = decodeURIComponent(s);
    } catch {
      return false;
    }
    if (s === '.' || s === '..' || /[/\\:]/.test(s) || CONTROL.test(s)) return true;
  }
  return false;
}

/** The first character that looks like or normalises to `.`, `/`, `\` or `:`. */
function lookAlike(s: string): string | undefined {
  for (const ch of s) {
    if (ch.charCodeAt(0) < 0x80) continue;
    if (LOOK_ALIKES.has(ch) || /[./\\:]/.test(ch.normalize('NFKC'))) return ch;
  }
  return undefined;
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The path quoted for a message: at most 120 characters, unprintable characters as escapes. */
export function show(raw: string): string {
  const cut = raw.length > 120 ? `${raw.slice(0, 120)}…` : raw;
  let out = '';
  for (const ch of cut) {
    const hidden = CONTROL.test(ch) || INVISIBLE.test(ch) || LONE_SURROGATE.test(ch);
    out += hidden ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch;
  }
  return `"${out}"`;
}
