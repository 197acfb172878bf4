/**
 * Where the agent's paths go in a workspace folder, for Apply and Review alike: each path through
 * `safeRelativePath` (`/workspace/src/a.ts` → `src/a.ts`), and paths that name the same workspace
 * file as another (equal but for case or Unicode normal form, which collide on Windows and macOS)
 * refused, both of them: Den cannot tell which is meant. No `vscode` import.
 */
import { safeRelativePath, show, type PathRules } from '../../core/paths/path-safety';
import { l10n } from '../../core/shared/l10n';

export type WorkspacePath =
  | { ok: true; relPath: string }
  /** `message` names the path; `relPath` is there when the path itself was safe (a clash). */
  | { ok: false; message: string; relPath?: string };

/** The workspace-relative path of each of `paths`, in order, or why it is refused. */
export function workspacePaths(paths: readonly string[], rules?: PathRules): WorkspacePath[] {
  const safe = paths.map((p) => safeRelativePath(p, rules));
  const byKey = new Map<string, number[]>();
  safe.forEach((s, k) => {
    if (!s.ok) return;
    const key = s.path.normalize('NFC').toLowerCase();
    byKey.set(key, [...(byKey.get(key) ?? []), k]);
  });
  const clash = new Map<number, string>();
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    for (const k of group) clash.set(k, paths[group.find((j) => j !== k)!]);
  }
  return safe.map((s, k): WorkspacePath => {
    if (!s.ok) return { ok: false, message: s.message };
    const other = clash.get(k);
    return other === undefined
      ? { ok: true, relPath: s.path }
      : {
          ok: false,
          relPath: s.path,
          message: l10n.t(
            'Refused the path {0}: it names the same workspace file as {1}.',
            show(paths[k]),
            show(other),
          ),
        };
  });
}
