/*
 * The editor-independent facts about attachments: content types, safe file names, storage keys and
 * the `references` objects of a turn request. No `vscode` here, so plain mocha covers it.
 */

/** Content type and VS Code language id for a file name extension (lower case, without the dot). */
const BY_EXTENSION: Record<string, [mime: string, language?: string]> = {
  txt: ['text/plain', 'plaintext'],
  log: ['text/plain', 'log'],
  md: ['text/markdown', 'markdown'],
  markdown: ['text/markdown', 'markdown'],
  csv: ['text/csv', 'csv'],
  tsv: ['text/tab-separated-values'],
  html: ['text/html', 'html'],
  htm: ['text/html', 'html'],
  css: ['text/css', 'css'],
  scss: ['text/x-scss', 'scss'],
  js: ['text/javascript', 'javascript'],
  mjs: ['text/javascript', 'javascript'],
  cjs: ['text/javascript', 'javascript'],
  jsx: ['text/javascript', 'javascriptreact'],
  ts: ['text/x-typescript', 'typescript'],
  mts: ['text/x-typescript', 'typescript'],
  cts: ['text/x-typescript', 'typescript'],
  tsx: ['text/x-typescript', 'typescriptreact'],
  json: ['application/json', 'json'],
  jsonc: ['application/json', 'jsonc'],
  ipynb: ['application/x-ipynb+json', 'json'],
  xml: ['application/xml', 'xml'],
  yaml: ['application/yaml', 'yaml'],
  yml: ['application/yaml', 'yaml'],
  toml: ['application/toml', 'toml'],
  ini: ['text/plain', 'ini'],
  sql: ['application/sql', 'sql'],
  sh: ['text/x-shellscript', 'shellscript'],
  bash: ['text/x-shellscript', 'shellscript'],
  ps1: ['text/plain', 'powershell'],
  py: ['text/x-python', 'python'],
  rb: ['text/x-ruby', 'ruby'],
  go: ['text/x-go', 'go'],
  rs: ['text/x-rust', 'rust'],
  java: ['text/x-java', 'java'],
  kt: ['text/x-kotlin', 'kotlin'],
  swift: ['text/x-swift', 'swift'],
  c: ['text/x-c', 'c'],
  h: ['text/x-c', 'c'],
  cpp: ['text/x-c++', 'cpp'],
  cc: ['text/x-c++', 'cpp'],
  hpp: ['text/x-c++', 'cpp'],
  cs: ['text/x-csharp', 'csharp'],
  php: ['text/x-php', 'php'],
  pdf: ['application/pdf'],
  png: ['image/png'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  svg: ['image/svg+xml', 'xml'],
  zip: ['application/zip'],
  gz: ['application/gzip'],
  tar: ['application/x-tar'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  mp3: ['audio/mpeg'],
  wav: ['audio/wav'],
  mp4: ['video/mp4'],
};

/** What unknown extensions are sent as. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** Longest file name Den gives the service, in characters (extension included). */
export const MAX_NAME_LENGTH = 120;

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** The content type for a file name, from its extension; `fallback` for unknown extensions. */
export function contentTypeFor(fileName: string, fallback = DEFAULT_CONTENT_TYPE): string {
  return BY_EXTENSION[extensionOf(fileName)]?.[0] ?? fallback;
}

/** VS Code's language id for a file name, when its extension is a known one. */
export function languageFor(fileName: string): string | undefined {
  return BY_EXTENSION[extensionOf(fileName)]?.[1];
}

/**
 * A file name the service can store under `<session id>/<name>`: the last path segment only (so
 * `../x` cannot climb out of the session's folder), no control or reserved characters, whitespace
 * collapsed, no trailing dots or spaces, at most `MAX_NAME_LENGTH` characters with the extension
 * kept. Letters of any script are kept. Empty or dot-only names become `file`.
 */
export function safeFileName(name: string): string {
  const last =
    name
      .normalize('NFC')
      .split(/[/\\]/)
      .filter((s) => s !== '')
      .pop() ?? '';
  let out = last
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f:*?"<>|]/g, '_')
    .trim()
    .replace(/[. ]+$/, '');
  if (/^\.*$/.test(out)) return 'file';
  const chars = [...out];
  if (chars.length > MAX_NAME_LENGTH) {
    const ext = extensionOf(out);
    const tail = ext && ext.length < 16 ? `.${ext}` : '';
    out = chars.slice(0, MAX_NAME_LENGTH - [...tail].length).join('') + tail;
  }
  return out;
}

/** The storage key of an attachment: `<session id>/<safe file name>`. */
export function attachmentKey(sessionId: string, fileName: string): string {
  return `${sessionId}/${safeFileName(fileName)}`;
}

/**
 * Safe, distinct names for the attachments of one turn, in order: a repeated name gets `-2`, `-3`…
 * before its extension, so no upload overwrites another under the same key.
 */
export function distinctNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw) => {
    const name = safeFileName(raw);
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** The name of a selection's attachment: `<file>-L12-L40.<ext>` (or `-L12` for one line). */
export function selectionFileName(fileName: string, firstLine: number, lastLine: number): string {
  const base = safeFileName(fileName);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, '.txt'];
  const lines = lastLine > firstLine ? `L${firstLine}-L${lastLine}` : `L${firstLine}`;
  return safeFileName(`${stem}-${lines}${ext}`);
}

/** A position as VS Code counts it: 0-based line, 0-based UTF-16 character offset. */
export interface EditorPosition {
  line: number;
  character: number;
}

/** Where a document is, as Den tells the service: never an absolute path of the person's disk. */
export interface WorkspaceLocation {
  /** Path inside its workspace folder (`/` separators); outside every folder, the file name only. */
  path: string;
  /** Name of the workspace folder it is in. */
  folder?: string;
}

/** The last segment of a path with `/` or `\` separators. */
function lastSegment(path: string): string {
  return (
    path
      .split(/[/\\]/)
      .filter((s) => s !== '')
      .pop() ?? ''
  );
}

/**
 * Locates a document by its URI path (`Uri.path`, `/` separators) within the workspace folder
 * VS Code says it is in (`folder.path` its URI path): the path relative to that folder and the
 * folder's name; outside every folder (or untitled), the file name only.
 */
export function workspaceLocation(
  filePath: string,
  folder?: { name: string; path: string },
): WorkspaceLocation {
  if (folder) {
    const root = folder.path.replace(/\/+$/, '');
    // VS Code matched the folder (case-insensitively where the disk is): cut by length.
    if (filePath.toLowerCase().startsWith(`${root.toLowerCase()}/`)) {
      const rel = filePath.slice(root.length + 1);
      if (rel) return { path: rel, folder: folder.name };
    }
  }
  return { path: lastSegment(filePath) || filePath };
}

/** Whether a path is absolute on some system (`/x`, `C:\x`, `c:/x`, `\\server\x`). */
function isAbsolutePath(path: string): boolean {
  return /^(?:[/\\]|[A-Za-z]:[/\\])/.test(path);
}

/** What a `references` entry is built from (positions as VS Code gives them). */
export interface ReferenceSource extends WorkspaceLocation {
  type: 'selection' | 'file';
  /** VS Code language id, when known. */
  language?: string;
  /** The selection (for `selection` references). */
  range?: { start: EditorPosition; end: EditorPosition };
  /** Name of the attachment that carries the content, when the turn has one. */
  attachment?: string;
  /** The editor had unsaved changes: the attachment holds the editor's text, not the file on disk. */
  unsaved?: boolean;
}

/**
 * One entry of a turn request's `references`. The service does not document their structure, so
 * this is the only place that decides it (docs/decisions/2026-11-22-turn-references.md):
 * `{type, path, folder?, language?, range?: {startLine, startCharacter, endLine, endCharacter},
 * attachment?, unsaved?}` with 1-based lines and 0-based character offsets. `path` is never an
 * absolute local path: given one, only the file name is sent.
 */
export function buildReference(src: ReferenceSource): Record<string, unknown> {
  const path = isAbsolutePath(src.path) ? lastSegment(src.path) : src.path;
  const ref: Record<string, unknown> = { type: src.type, path };
  if (src.folder && !isAbsolutePath(src.path)) ref.folder = src.folder;
  if (src.language) ref.language = src.language;
  if (src.range) {
    ref.range = {
      startLine: src.range.start.line + 1,
      startCharacter: src.range.start.character,
      endLine: src.range.end.line + 1,
      endCharacter: src.range.end.character,
    };
  }
  if (src.attachment) ref.attachment = src.attachment;
  if (src.unsaved) ref.unsaved = true;
  return ref;
}
