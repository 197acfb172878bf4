import type { AgentEvent, FileInfo } from './types';
import { isRecord, isString } from '../shared/schema';
import { pick, type WireObject } from './readers';

/** A file's content found in a session's events. */
export interface RecoveredFile {
  content: string;
  /** The path the tool wrote to. */
  path: string;
  /** The event it came from. */
  eventId: number;
}

const PATH_FIELDS = ['path', 'file_path', 'filePath', 'filename', 'file'];
const CONTENT_FIELDS = ['content', 'file_text', 'contents', 'text'];

function norm(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

function parametersOf(e: AgentEvent): WireObject | undefined {
  let p: unknown = e.payload.parameters ?? e.payload.params ?? e.payload.arguments;
  if (isString(p)) {
    try {
      p = JSON.parse(p);
    } catch {
      return undefined;
    }
  }
  return isRecord(p) ? p : undefined;
}

/** Whole-file writes in `events`, oldest first: a tool's parameters with a path and full content. */
function writes(events: readonly AgentEvent[]): RecoveredFile[] {
  const out: RecoveredFile[] = [];
  for (const e of events) {
    if (!e.kind.startsWith('tool.')) continue;
    const params = parametersOf(e);
    if (!params) continue;
    const path = pick(params, ...PATH_FIELDS);
    const content = pick(params, ...CONTENT_FIELDS);
    if (isString(path) && path !== '' && isString(content)) {
      out.push({ path, content, eventId: e.event_id });
    }
  }
  return out;
}

/**
 * The latest content a file-writing tool gave `file` in `events`, if any. A write matches when its
 * path equals the file's key, or one is a path suffix of the other (keys are often
 * `<session>/<path>`, tool paths absolute inside the sandbox). Failing that, a write to the file's
 * name is used only when a single distinct path has that name, so two `index.ts` never mix up.
 */
export function recoverFromEvents(file: FileInfo, events: readonly AgentEvent[]): RecoveredFile | undefined {
  const all = writes(events);
  const key = norm(file.key);
  const byKey = all.filter((w) => {
    const p = norm(w.path);
    return p === key || key.endsWith(`/${p}`) || p.endsWith(`/${key}`);
  });
  if (byKey.length > 0) return byKey[byKey.length - 1];
  const name = norm(file.name);
  if (name === '') return undefined;
  const byName = all.filter((w) => {
    const p = norm(w.path);
    return p === name || p.endsWith(`/${name}`);
  });
  const paths = new Set(byName.map((w) => norm(w.path)));
  return paths.size === 1 ? byName[byName.length - 1] : undefined;
}
