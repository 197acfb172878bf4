// @ts-check
// Writes l10n/bundle.l10n.json, the English bundle: every message of a `vscode.l10n.t('…')` call in
// src/ and of an `l10n.t('…')` call through Den's own `core/l10n.ts` (`npm run l10n`).
// @vscode/l10n-dev's extractor recognizes `l10n.t` only when `l10n` is imported from `vscode` or
// `@vscode/l10n`, so a file importing `core/l10n` is handed to it with that import added.
'use strict';
const fs = require('fs');
const path = require('path');
const { getL10nJson } = require('@vscode/l10n-dev');
const { listTs } = require('./lib/list-ts');

const ROOT = path.join(__dirname, '..');
const OWN_L10N =
  /^import \{ (?:[\w, ]+, )?l10n(?:, [\w, ]+)? \} from '(?:\.\.?\/)+(?:core\/)?(?:shared\/)?l10n';$/m;

async function main() {
  const files = listTs(path.join(ROOT, 'src'))
    .sort()
    .map((f) => {
      const contents = fs.readFileSync(f, 'utf8');
      return {
        extension: '.ts',
        contents: OWN_L10N.test(contents) ? `import * as l10n from '@vscode/l10n';\n${contents}` : contents,
      };
    });
  const bundle = await getL10nJson(files);
  const sorted = Object.fromEntries(
    Object.keys(bundle)
      .sort()
      .map((k) => [k, bundle[k]]),
  );
  const out = path.join(ROOT, 'l10n', 'bundle.l10n.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`${Object.keys(sorted).length} messages in ${path.relative(ROOT, out)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
