import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../../../..');

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return listTs(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The messages of `l10n.t('…')` calls in `source`: quoted literals, as Prettier writes them (single
 * quotes, double when the text holds a single one). A template literal is not a message.
 */
export function messagesOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/\bl10n\.t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/g)) {
    out.push((m[1] ?? m[2]).replace(/\\(.)/g, '$1'));
  }
  return out;
}

/**
 * Lines of host code that show a person an English literal without `l10n.t`: a message box given a
 * literal, or a property that names a person-facing text (title, label, tooltip, prompt…) set to a
 * literal that starts like a sentence. Narrow on purpose (it cannot see every string); a line that
 * must stay as it is says `l10n-ignore` and why.
 */
export function unlocalizedLines(source: string): string[] {
  const box = /show(?:Information|Warning|Error)Message\(\s*['"`]/;
  const prop =
    /\b(?:title|placeHolder|placeholder|prompt|tooltip|label|description|detail|message|text|hint|notice):\s*['"`][A-Z]/;
  return source
    .split('\n')
    .filter((line) => (box.test(line) || prop.test(line)) && !line.includes('l10n-ignore'));
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

  it('finds quoted messages of either kind, and flags literal texts shown without l10n.t', () => {
    assert.deepEqual(messagesOf(`l10n.t("Don't stop", x); l10n.t(\`No {0}\`)`), ["Don't stop"]);
    assert.deepEqual(
      unlocalizedLines(
        [
          "void vscode.window.showErrorMessage('Den: boom');",
          "void vscode.window.showErrorMessage(l10n.t('Den: boom'));",
          "const item = { label: 'Sign In', id: 'x' };",
          "const item = { label: l10n.t('Sign In'), id: 'x' };",
          "const item = { label: '$(key)', id: 'x' };",
          'const pick = { title: `Den: ${name}` };',
          "const x = { title: 'Den' }; // l10n-ignore: the product name",
        ].join('\n'),
      ),
      [
        "void vscode.window.showErrorMessage('Den: boom');",
        "const item = { label: 'Sign In', id: 'x' };",
        'const pick = { title: `Den: ${name}` };',
      ],
    );
  });

  it('holds every message Den translates, host and webviews (run `npm run l10n` when this fails)', () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of listTs(join(ROOT, 'src'))) {
      if (file.endsWith(join('core', 'shared', 'l10n.ts'))) continue; // its doc comment shows a call
      for (const message of messagesOf(readFileSync(file, 'utf8'))) {
        count++;
        if (bundle[message] !== message) missing.push(`${relative(ROOT, file)}: ${message}`);
      }
    }
    assert.ok(count > 150, `only ${count} l10n.t calls found in src/`);
    assert.deepEqual(missing, []);
  });

  it('is what `npm run l10n` writes: keys sorted, each its own English text', () => {
    const keys = Object.keys(bundle);
    assert.deepEqual(keys, [...keys].sort());
    for (const k of keys) assert.equal(bundle[k], k);
  });

  it('no host file shows a literal text without l10n.t (the narrow scan above)', () => {
    const found: string[] = [];
    for (const file of listTs(join(ROOT, 'src'))) {
      if (file.includes(`${join('src', 'webview')}`)) continue;
      for (const line of unlocalizedLines(readFileSync(file, 'utf8')))
        found.push(`${relative(ROOT, file)}: ${line.trim()}`);
    }
    assert.deepEqual(found, []);
  });
});
