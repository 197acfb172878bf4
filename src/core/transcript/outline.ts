/**
 * A turn's outline: its steps (the plan, the answer's headings or opening lines, runs of tool calls
 * counted by tool), the files it changed and where it failed (failed tool calls, the turn's error),
 * each pointing at what shows it, so a long turn can be jumped around. Pure and browser-safe: it
 * reads the model and returns data the view words (no texts to translate here).
 */
import type { Block, FileChange, FileChangeKind, Plan, ToolBlock, TurnError, TurnStatus } from './model';

/** What an outline entry points at in the transcript. */
export type OutlineTarget =
  /** A block; `offset`: the character of a markdown block's text the entry starts at. */
  | { kind: 'block'; blockId: string; offset?: number }
  | { kind: 'plan' }
  | { kind: 'files' }
  | { kind: 'status' };

export type OutlineStep =
  | { type: 'plan'; key: string; done: number; total: number; active?: string; target: OutlineTarget }
  /** A Markdown heading of the answer (`level` 1–6). */
  | { type: 'heading'; key: string; level: number; text: string; target: OutlineTarget }
  /** The first line of answer text that has no heading. */
  | { type: 'text'; key: string; text: string; target: OutlineTarget }
  /** Consecutive tool calls (thoughts and events between them do not break the run). */
  | {
      type: 'tools';
      key: string;
      count: number;
      failed: number;
      running: number;
      /** Tool names with how many calls each, most first (then first seen). */
      tools: { name: string; count: number }[];
      target: OutlineTarget;
    };

export interface OutlineFile {
  key: string;
  path: string;
  change: FileChangeKind;
  /** The last tool call naming the file, else the turn's files list. */
  target: OutlineTarget;
}

export type OutlineFailure =
  | { type: 'tool'; key: string; name: string; subject?: string; detail?: string; target: OutlineTarget }
  | { type: 'turn'; key: string; message: string; code?: string; target: OutlineTarget };

export interface Outline {
  steps: OutlineStep[];
  files: OutlineFile[];
  failures: OutlineFailure[];
}

/** What the outline reads of a turn (the model's `Turn` and the webview's turn state both fit). */
export interface OutlineInput {
  blocks: readonly Block[];
  plan?: Plan;
  files: readonly FileChange[];
  status: TurnStatus;
  error?: TurnError;
}

export interface Heading {
  level: number;
  text: string;
  /** Where the heading's line starts in the text. */
  offset: number;
}

/** Characters of a text line or detail kept in an entry. */
export const OUTLINE_CLIP = 80;

function clip(s: string, max = OUTLINE_CLIP): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Inline Markdown marks taken off a heading (emphasis, code, links). */
function plain(s: string): string {
  return s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})[ \t]+(.*)$/;

/** The ATX headings of a Markdown text, outside fenced code. */
export function markdownHeadings(text: string): Heading[] {
  const out: Heading[] = [];
  let fence: string | undefined;
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
    } else if (f) fence = f[1];
    else {
      const m = ATX.exec(line);
      const words = m ? plain(m[2]) : '';
      if (m && words) out.push({ level: m[1].length, text: clip(words), offset: at });
    }
    at = end + 1;
  }
  return out;
}

/** The first line of a text with words in it, clipped (Markdown marks off), and where it starts. */
function firstLine(text: string): { text: string; offset: number } | undefined {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const words = plain(text.slice(at, end).replace(/^\s*([>*+-]|\d+[.)])\s+/, ''));
    if (/[\p{L}\p{N}]/u.test(words)) return { text: clip(words), offset: at };
    at = end + 1;
  }
  return undefined;
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'filename', 'target', 'destination'];
const SUBJECT_KEYS = ['command', 'cmd', ...PATH_KEYS, 'query', 'url', 'pattern'];

/** The tool's main parameter as one line (its command, path, query…), when it has one. */
export function toolSubject(t: ToolBlock): string | undefined {
  for (const k of SUBJECT_KEYS) {
    const v = t.parameters[k];
    if (typeof v === 'string' && v.trim()) return clip(v, 60);
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))
      return clip(v.join(' '), 60);
  }
  return undefined;
}

/** What a failed tool's output says, as one line. */
function failureDetail(output: unknown): string | undefined {
  if (typeof output === 'string') return output.trim() ? clip(output) : undefined;
  if (typeof output === 'object' && output !== null) {
    const o = output as Record<string, unknown>;
    for (const k of ['message', 'error', 'stderr', 'reason']) {
      const v = o[k];
      if (typeof v === 'string' && v.trim()) return clip(v);
      if (typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string')
        return clip((v as { message: string }).message);
    }
  }
  return undefined;
}

function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** Whether a tool parameter value names `path` (the same path, or one ending with it). */
function names(value: unknown, path: string): boolean {
  if (typeof value !== 'string' || !value) return false;
  const v = normalizePath(value);
  return v === path || v.endsWith(`/${path}`) || path.endsWith(`/${v}`);
}

/**
 * The outline of a turn. `headings` reads a markdown block's headings (give a memoized
 * {@link markdownHeadings} when the outline is recomputed as a turn streams).
 */
export function turnOutline(
  turn: OutlineInput,
  headings: (block: Block & { type: 'markdown' }) => readonly Heading[] = (b) => markdownHeadings(b.text),
): Outline {
  const steps: OutlineStep[] = [];
  const failures: OutlineFailure[] = [];
  const plan = turn.plan;
  if (plan && plan.todos.length > 0) {
    const done = plan.todos.filter((t) => t.status === 'completed').length;
    const active = plan.todos.find((t) => t.status === 'active');
    steps.push({
      type: 'plan',
      key: 'plan',
      done,
      total: plan.todos.length,
      ...(active ? { active: clip(active.content) } : {}),
      target: { kind: 'plan' },
    });
  }
  let run: Extract<OutlineStep, { type: 'tools' }> | undefined;
  const counts = new Map<string, number>();
  const endRun = (): void => {
    if (!run) return;
    run.tools = [...counts].map(([name, count]) => ({ name, count }));
    // stable: equal counts keep the order first seen
    run.tools.sort((a, b) => b.count - a.count);
    run = undefined;
    counts.clear();
  };
  const tools: ToolBlock[] = [];
  for (const b of turn.blocks) {
    if (b.type === 'tool') {
      tools.push(b);
      if (!run) {
        run = {
          type: 'tools',
          key: `tools:${b.id}`,
          count: 0,
          failed: 0,
          running: 0,
          tools: [],
          target: { kind: 'block', blockId: b.id },
        };
        steps.push(run);
      }
      run.count++;
      counts.set(b.name, (counts.get(b.name) ?? 0) + 1);
      if (b.status === 'error') {
        run.failed++;
        const subject = toolSubject(b);
        const detail = failureDetail(b.output);
        failures.push({
          type: 'tool',
          key: `fail:${b.id}`,
          name: b.name,
          ...(subject ? { subject } : {}),
          ...(detail ? { detail } : {}),
          target: { kind: 'block', blockId: b.id },
        });
      } else if (b.status === 'running') run.running++;
    } else if (b.type === 'markdown' || b.type === 'text') {
      const hs = b.type === 'markdown' ? headings(b) : [];
      const first = firstLine(b.text);
      if (!first) continue;
      endRun();
      if (hs.length === 0 || (first.offset < hs[0].offset && b.type === 'markdown')) {
        steps.push({
          type: 'text',
          key: `text:${b.id}`,
          text: first.text,
          target: { kind: 'block', blockId: b.id, offset: first.offset },
        });
      }
      for (const hd of hs) {
        steps.push({
          type: 'heading',
          key: `h:${b.id}:${hd.offset}`,
          level: hd.level,
          text: hd.text,
          target: { kind: 'block', blockId: b.id, offset: hd.offset },
        });
      }
    }
  }
  endRun();
  const files: OutlineFile[] = turn.files.map((f) => {
    const path = normalizePath(f.path);
    let writer: ToolBlock | undefined;
    for (let i = tools.length - 1; i >= 0 && !writer; i--) {
      const p = tools[i].parameters;
      if (PATH_KEYS.some((k) => names(p[k], path))) writer = tools[i];
    }
    return {
      key: `file:${f.path}`,
      path: f.path,
      change: f.change,
      target: writer ? { kind: 'block', blockId: writer.id } : { kind: 'files' },
    };
  });
  if (turn.status === 'error') {
    failures.push({
      type: 'turn',
      key: 'fail:turn',
      message: clip(turn.error?.message ?? ''),
      ...(turn.error?.code ? { code: turn.error.code } : {}),
      target: { kind: 'status' },
    });
  }
  return { steps, files, failures };
}
