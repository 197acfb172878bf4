/**
 * The glob patterns of `files.exclude` as matchers of workspace-relative paths (`/` separators),
 * the way VS Code reads them: `**` any number of segments, `*` and `?` within a segment, `{a,b}`
 * alternatives, `[abc]` / `[!abc]` character classes. A pattern that matches a folder excludes
 * everything in it. No `vscode` here, so plain mocha covers it.
 */

/** The regular expression source of one glob. */
export function globSource(glob: string): string {
  let out = '';
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      i += 2;
      const atStart = out === '' || out.endsWith('/');
      if (glob[i] === '/' && atStart) {
        // `**/` : zero or more whole segments
        i++;
        out += '(?:[^/]*/)*';
      } else {
        out += '.*';
      }
      continue;
    }
    i++;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') {
      const end = glob.indexOf(']', i);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i, end);
      i = end + 1;
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
    } else out += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return out + ')'.repeat(braces);
}

/** A matcher for one glob: whole path, case-sensitive unless `ignoreCase`. */
export function globMatcher(glob: string, ignoreCase = false): (path: string) => boolean {
  const pattern = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  if (!pattern) return () => false;
  let re: RegExp;
  try {
    re = new RegExp(`^${globSource(pattern)}$`, ignoreCase ? 'i' : '');
  } catch {
    return () => false;
  }
  return (path) => re.test(path);
}

/**
 * The matcher of a `files.exclude` value: paths matched by a pattern set to `true`. Patterns set
 * to `false` are off, and conditional ones (`{ "when": … }`) are not applied (they depend on
 * sibling files): their files are attached.
 */
export function excludeMatcher(setting: unknown, ignoreCase = false): (path: string) => boolean {
  if (typeof setting !== 'object' || setting === null) return () => false;
  const matchers = Object.entries(setting as Record<string, unknown>)
    .filter(([, on]) => on === true)
    .map(([glob]) => globMatcher(glob, ignoreCase));
  return (path) => matchers.some((m) => m(path));
}
