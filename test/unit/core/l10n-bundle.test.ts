import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../../..');

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return listTs(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The messages of `l10n.t('…')` calls in `source` (single-quoted literals, as Prettier writes them). */
export function messagesOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/\bl10n\.t\(\s*'((?:[^'\\\n]|\\.)*)'/g)) {
    out.push(m[1].replace(/\\(.)/g, '$1'));
  }
  return out;
}

describe('l10n/bundle.l10n.json (the English bundle)', () => {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<
    string,
    string
  >;

  it('finds messages the way the scan below does (one per call, over line breaks, escapes read)', () => {
    assert.deepEqual(messagesOf("l10n.t('Send'); l10n.t(\n  'It\\'s {0}',\n  x); vscode.l10n.t('Host')"), [
      'Send',
      "It's {0}",
      'Host',
    ]);
  });

  it('holds every message the two webview programs translate (run `npm run l10n` when this fails)', () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of listTs(join(ROOT, 'src/webview'))) {
      for (const message of messagesOf(readFileSync(file, 'utf8'))) {
        count++;
        if (bundle[message] !== message) missing.push(`${relative(ROOT, file)}: ${message}`);
      }
    }
    assert.ok(count > 150, `only ${count} l10n.t calls found in src/webview`);
    assert.deepEqual(missing, []);
  });

  it('is what `npm run l10n` writes: keys sorted, each its own English text', () => {
    const keys = Object.keys(bundle);
    assert.deepEqual(keys, [...keys].sort());
    for (const k of keys) assert.equal(bundle[k], k);
  });
});
