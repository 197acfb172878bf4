/**
 * A tool run in one line: its name, the one thing that identifies it (a file's path, a command, a
 * search's query, else its first short text parameter) and a short outcome (`+10`, `exit 0 · 2
 * passing`, `5 results`, "failed"). A run of consecutive tool calls in one line: "12 tool calls ·
 * 2 failed · 48 s". Pure and browser-safe; tool names are the ones the service is seen to use
 * (`write_file`, `run_command`, `web_search`, …) and their usual aliases; any other tool falls back
 * to its first short string parameter.
 */
import { formatCount, l10n } from '../shared/l10n';
import type { ToolBlock } from './model';

/** Where a run stands as its line says it: `cut-off` is a run its ended turn left without a result. */
export type ToolLineState = 'running' | 'success' | 'error' | 'cut-off';

export interface ToolSummary {
  name: string;
  /** What identifies the run, on one line, clipped ('' when nothing does). */
  subject: string;
  /** Short facts after the subject, in words ("failed", "exit 1", "2 passing"). */
  outcome: string[];
  state: ToolLineState;
}

/** Longest subject shown, in characters (the rest is in the expanded parameters). */
export const SUBJECT_CLIP = 80;
/** Characters at the end of a log read for test counts and the running line (keeps appends O(1)). */
const LOG_TAIL = 8000;

const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'target_file', 'target'];
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine'];
const QUERY_KEYS = ['query', 'q', 'search', 'search_query', 'pattern'];
const URL_KEYS = ['url', 'uri', 'href', 'link'];
const CONTENT_KEYS = ['content', 'contents', 'text', 'data', 'file_text'];

type Kind = 'write' | 'edit' | 'read' | 'delete' | 'list' | 'command' | 'search' | 'fetch' | 'other';

const KINDS: [Kind, RegExp][] = [
  ['write', /^(write|create)_?(file)?$|^(write|create|save)_file$|^write_to_file$/],
  ['edit', /^(edit|str_replace|replace|apply_patch|patch|insert|update)(_file|_editor|_in_file)?$/],
  ['read', /^(read|view|cat|open)(_file)?$/],
  ['delete', /^(delete|remove|rm)(_file)?$/],
  ['list', /^(list|ls|glob|find)(_dir|_directory|_files)?$/],
  ['command', /^(run|exec|execute|bash|shell|terminal|sh)(_command|_shell|_terminal|_cmd)?$/],
  ['search', /^(web_?search|search(_web)?|google(_search)?|grep|search_files|ripgrep)$/],
  ['fetch', /^(fetch|web_?fetch|browse|open_url|http_get|read_url|visit)(_page|_url)?$/],
];

function kindOf(name: string): Kind {
  const n = name.toLowerCase();
  return KINDS.find(([, re]) => re.test(n))?.[0] ?? 'other';
}

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;

/** One line of `s`, control codes out, clipped to `max` with "…". */
export function oneLine(s: string, max = SUBJECT_CLIP): string {
  const line = s.replace(ANSI, '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function firstString(p: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = p[k];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return undefined;
}

/** The first short, one-line string parameter (an unknown tool's subject). */
function firstShortString(p: Record<string, unknown>): string | undefined {
  let fallback: string | undefined;
  for (const v of Object.values(p)) {
    if (typeof v !== 'string' || !v.trim()) continue;
    if (v.length <= 200 && !v.trim().includes('\n')) return v;
    fallback ??= v;
  }
  return fallback;
}

function linesText(n: number): string {
  return n === 1 ? l10n.t('1 line') : l10n.t('{0} lines', formatCount(n));
}

function lineCount(s: string): number {
  if (!s) return 0;
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) if (i < s.length - 1) n++;
  return n;
}

function logTail(b: ToolBlock): string {
  let s = '';
  for (let i = b.log.segments.length - 1; i >= 0 && s.length < LOG_TAIL; i--) s = b.log.segments[i].data + s;
  return s.length > LOG_TAIL ? s.slice(-LOG_TAIL) : s;
}

/** The exit code a command's output or result says (`exit code 1`, `{exit_code: 1}`, `exited with 2`). */
export function exitCodeOf(output: unknown): number | undefined {
  if (output && typeof output === 'object' && !Array.isArray(output)) {
    const o = output as Record<string, unknown>;
    for (const k of ['exit_code', 'exitCode', 'code', 'returncode', 'status_code']) {
      if (typeof o[k] === 'number' && Number.isInteger(o[k])) return o[k];
    }
    return undefined;
  }
  if (typeof output !== 'string') return undefined;
  const m = /\bexit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?[\s:=]+(-?\d+)\b/i.exec(output.slice(0, 2000));
  return m ? Number(m[1]) : undefined;
}

/** Test counts a test runner printed at the end of a log ("2 passing", "1 failing", "3 passed"). */
export function testCountsOf(log: string): string[] {
  const text = log.replace(ANSI, '');
  const out: string[] = [];
  const last = (re: RegExp): number | undefined => {
    let n: number | undefined;
    for (const m of text.matchAll(re)) n = Number(m[1]);
    return n;
  };
  const passing = last(/\b(\d+) passing\b/g) ?? last(/\b(\d+) passed\b/g);
  const failing = last(/\b(\d+) failing\b/g) ?? last(/\b(\d+) failed\b/g);
  if (passing !== undefined) out.push(l10n.t('{0} passing', passing));
  if (failing !== undefined && failing > 0) out.push(l10n.t('{0} failing', failing));
  return out;
}

/** A JSON value from a tool's output: the value itself, or a string that holds JSON; else undefined. */
export function jsonOutput(output: unknown): unknown {
  if (output !== null && typeof output === 'object') return output;
  if (typeof output !== 'string') return undefined;
  const s = output.trim();
  if (!(s.startsWith('{') && s.endsWith('}')) && !(s.startsWith('[') && s.endsWith(']'))) return undefined;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** How many results a search's output lists (an array, or an object's `results`/`items`/…). */
function resultCount(output: unknown): number | undefined {
  const v = jsonOutput(output);
  if (Array.isArray(v)) return v.length;
  if (v && typeof v === 'object') {
    for (const k of ['results', 'items', 'hits', 'matches', 'organic_results', 'data']) {
      const a = (v as Record<string, unknown>)[k];
      if (Array.isArray(a)) return a.length;
    }
  }
  return undefined;
}

function linesAdded(p: Record<string, unknown>): string[] {
  const content = firstString(p, CONTENT_KEYS);
  if (content !== undefined) return [`+${lineCount(content)}`];
  const added = firstString(p, ['new_str', 'new_string', 'replacement', 'new_text']);
  const removed = firstString(p, ['old_str', 'old_string', 'search', 'old_text']);
  const out: string[] = [];
  if (added !== undefined) out.push(`+${lineCount(added)}`);
  if (removed !== undefined) out.push(`−${lineCount(removed)}`);
  return out.length ? [out.join(' ')] : [];
}

/** The last non-empty line of a running tool's log: what it does now. */
function liveLine(b: ToolBlock): string | undefined {
  const lines = logTail(b).replace(ANSI, '').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = oneLine(lines[i], 60);
    if (l) return l;
  }
  return undefined;
}

/**
 * The one-line summary of a tool run. `cutOff`: its turn ended without the run's result (Stop, a
 * failure), so it no longer runs whatever its status says.
 */
export function toolSummary(b: ToolBlock, cutOff = false): ToolSummary {
  const p = b.parameters;
  const name = b.name || 'tool';
  const kind = kindOf(name);
  const state: ToolLineState = b.status === 'running' ? (cutOff ? 'cut-off' : 'running') : b.status;
  let subject: string | undefined;
  const outcome: string[] = [];
  switch (kind) {
    case 'write':
    case 'edit':
      subject = firstString(p, PATH_KEYS);
      outcome.push(...linesAdded(p));
      break;
    case 'read':
    case 'delete':
    case 'list':
      subject = firstString(p, [...PATH_KEYS, ...QUERY_KEYS]);
      if (kind === 'read' && state === 'success' && typeof b.output === 'string' && b.output)
        outcome.push(linesText(lineCount(b.output)));
      break;
    case 'command':
      subject = firstString(p, COMMAND_KEYS);
      break;
    case 'search': {
      const q = firstString(p, QUERY_KEYS);
      subject = q !== undefined ? `“${oneLine(q, SUBJECT_CLIP - 2)}”` : undefined;
      const n = state === 'success' ? resultCount(b.output) : undefined;
      if (n !== undefined) outcome.push(n === 1 ? l10n.t('1 result') : l10n.t('{0} results', n));
      break;
    }
    case 'fetch':
      subject = firstString(p, URL_KEYS);
      break;
    case 'other':
      break;
  }
  subject ??= firstShortString(p);
  if (state === 'running') outcome.unshift(l10n.t('running…'));
  else if (state === 'cut-off') outcome.unshift(l10n.t('did not finish'));
  else if (state === 'error') outcome.unshift(l10n.t('failed'));
  const exit = kind === 'command' || state === 'error' ? exitCodeOf(b.output) : undefined;
  if (exit !== undefined && state !== 'running') outcome.push(l10n.t('exit {0}', exit));
  if (kind === 'command' && state !== 'running') outcome.push(...testCountsOf(logTail(b)));
  if (state === 'error' && exit === undefined && typeof b.output === 'string') {
    const why = oneLine(b.output, 60);
    if (why) outcome.push(why);
  }
  if (state === 'running') {
    const now = liveLine(b);
    if (now) outcome.push(now);
  }
  return { name, subject: subject === undefined ? '' : oneLine(subject), outcome, state };
}

/** The summary as one line of text: `write_file src/x.ts · +10`. */
export function toolLineText(s: ToolSummary): string {
  const head = s.subject ? `${s.name} ${s.subject}` : s.name;
  return [head, ...s.outcome].join(' · ');
}

export interface GroupSummary {
  count: number;
  failed: number;
  /** Calls still running (0 once the turn ended). */
  running: number;
  /** From the first call's start to the last one's end, when every call's times are known. */
  seconds?: number;
}

/** What a run of consecutive tool calls adds up to. `live`: their turn still runs. */
export function groupSummary(tools: readonly ToolBlock[], live: boolean): GroupSummary {
  let failed = 0;
  let running = 0;
  let start = Infinity;
  let end = -Infinity;
  let timed = true;
  for (const t of tools) {
    if (t.status === 'error') failed++;
    if (t.status === 'running' && live) running++;
    if (t.startedAt === undefined || t.endedAt === undefined) timed = false;
    else {
      start = Math.min(start, t.startedAt);
      end = Math.max(end, t.endedAt);
    }
  }
  const g: GroupSummary = { count: tools.length, failed, running };
  if (timed && running === 0 && tools.length > 0 && end >= start) g.seconds = (end - start) / 1000;
  return g;
}

/** "12 tool calls · 2 failed · 48 s"; `duration` formats the seconds. */
export function groupLineText(g: GroupSummary, duration: (seconds: number) => string): string {
  const parts = [l10n.t('{0} tool calls', g.count)];
  if (g.failed > 0) parts.push(g.failed === 1 ? l10n.t('1 failed') : l10n.t('{0} failed', g.failed));
  if (g.running > 0) parts.push(l10n.t('running…'));
  else if (g.seconds !== undefined) parts.push(duration(g.seconds));
  return parts.join(' · ');
}

/**
 * An event Den has no words for, in a few words: the first short texts and numbers of its payload
 * joined with " · " (a `focus` event's title and detail), '' when none.
 */
export function eventPreview(payload: unknown, max = SUBJECT_CLIP): string {
  if (typeof payload === 'string' || typeof payload === 'number' || typeof payload === 'boolean')
    return oneLine(String(payload), max);
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(payload)) {
    if (parts.length >= 3) break;
    if (typeof v === 'string' && v.trim() && v.length <= 200) parts.push(oneLine(v, 60));
    else if (typeof v === 'number' && Number.isFinite(v)) parts.push(`${k} ${v}`);
  }
  return oneLine(parts.join(' · '), max);
}
