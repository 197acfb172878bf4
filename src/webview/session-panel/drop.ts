/**
 * Files dropped on the panel. VS Code lets a webview receive a drop only while Shift is held (a
 * drop without Shift opens the file in the editor group, and the webview never sees it). A drag
 * from the Explorer or an editor tab then carries the resources' URIs: `resourceurls` (VS Code's
 * own, a JSON array with every dragged resource), `application/vnd.code.uri-list` and
 * `text/uri-list` (newline separated; some versions keep only the first entry of a multi-select).
 * Files dragged from another application carry no URI: only their count goes to the host, which
 * says how to attach them. The host checks every URI; the webview only gathers them.
 */
import { MAX_DROPPED_URIS } from '../../protocol/session-panel/messages';
import type { Post } from '../shared/post';

/** The part of a `DataTransfer` a drop is read from. */
export interface DropData {
  readonly types: readonly string[];
  getData(type: string): string;
  readonly files?: { readonly length: number };
}

/** Types that carry URIs, best first. */
const URI_TYPES = ['resourceurls', 'application/vnd.code.uri-list', 'text/uri-list'];

function uriList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

function jsonList(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether a drag may be dropped here: it carries URIs or files. */
export function acceptsDrag(types: readonly string[]): boolean {
  const lower = types.map((t) => t.toLowerCase());
  return URI_TYPES.some((t) => lower.includes(t)) || lower.includes('files');
}

/** The URIs a drop carries (the fullest list of the types it has), and the files without one. */
export function readDrop(data: DropData): { uris: string[]; otherFiles: number } {
  const lower = data.types.map((t) => t.toLowerCase());
  let uris: string[] = [];
  for (const type of URI_TYPES) {
    if (!lower.includes(type)) continue;
    const raw = data.getData(type);
    const list = type === 'resourceurls' ? jsonList(raw) : uriList(raw);
    if (list.length > uris.length) uris = list;
  }
  uris = [...new Set(uris)].slice(0, MAX_DROPPED_URIS);
  const otherFiles = uris.length ? 0 : (data.files?.length ?? 0);
  return { uris, otherFiles };
}

/** Makes `el` a drop target for files: it shows while a drag is over it, and posts `dropUris`. */
export function installDropTarget(el: HTMLElement, post: Post): void {
  let depth = 0;
  const show = (on: boolean): void => {
    el.classList.toggle('drop-target', on);
  };
  el.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer || !acceptsDrag([...e.dataTransfer.types])) return;
    depth++;
    show(true);
  });
  el.addEventListener('dragover', (e) => {
    if (!e.dataTransfer || !acceptsDrag([...e.dataTransfer.types])) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  el.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) show(false);
  });
  el.addEventListener('drop', (e) => {
    depth = 0;
    show(false);
    if (!e.dataTransfer || !acceptsDrag([...e.dataTransfer.types])) return;
    e.preventDefault();
    const { uris, otherFiles } = readDrop({
      types: [...e.dataTransfer.types],
      getData: (t) => e.dataTransfer?.getData(t) ?? '',
      files: e.dataTransfer.files,
    });
    if (!uris.length && !otherFiles) return;
    post({ type: 'dropUris', uris, ...(otherFiles ? { otherFiles } : {}) });
  });
}
