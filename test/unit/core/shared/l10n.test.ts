import assert from 'node:assert/strict';
import { formatCount, l10n, setL10nBundle } from '../../../../src/core/shared/l10n';

describe('l10n.t (the webviews’ vscode.l10n.t)', () => {
  afterEach(() => setL10nBundle(undefined));

  const cases: [string, string, (string | number | boolean)[], string][] = [
    ['keeps a message without args as it is', 'Send', [], 'Send'],
    ['replaces {0} and {1} with the args', 'Failed: {0} ({1})', ['boom', 'E42'], 'Failed: boom (E42)'],
    ['replaces a placeholder used twice each time', '{0} and {0} again', ['x'], 'x and x again'],
    ['writes numbers and booleans as text', '{0} rows, {1}', [3, true], '3 rows, true'],
    ['leaves a placeholder without an arg as it is', 'Showing {0} of {1}', [5], 'Showing 5 of {1}'],
    ['does not read an arg as a placeholder again', '{0} {1}', ['{1}', 'b'], '{1} b'],
    ['leaves braces that are not placeholders alone', '{name} {0}', ['v'], '{name} v'],
  ];
  for (const [title, message, args, expected] of cases) {
    it(title, () => assert.equal(l10n.t(message, ...args), expected));
  }

  it('looks the message up in the bundle and formats the translation', () => {
    setL10nBundle({ Send: 'Senden', 'Failed: {0} ({1})': '({1}) Fehlgeschlagen: {0}' });
    assert.equal(l10n.t('Send'), 'Senden');
    assert.equal(l10n.t('Failed: {0} ({1})', 'boom', 'E42'), '(E42) Fehlgeschlagen: boom');
  });

  it('falls back to the message when the bundle lacks it, and after the bundle is unset', () => {
    setL10nBundle({ Send: 'Senden' });
    assert.equal(l10n.t('Stop'), 'Stop');
    assert.equal(l10n.t('{0} queued', 2), '2 queued');
    assert.equal(l10n.t('constructor'), 'constructor', 'an inherited property is not a translation');
    setL10nBundle(undefined);
    assert.equal(l10n.t('Send'), 'Send');
  });

  it('keeps the bundle in one slot that every copy of the module reads', () => {
    setL10nBundle({ Send: 'Senden' });
    const slot = (globalThis as Record<symbol, { bundle?: Record<string, string> }>)[Symbol.for('den.l10n')];
    assert.deepEqual(slot?.bundle, { Send: 'Senden' });
  });

  it('writes counts in the locale it was given, else in the runtime default', () => {
    setL10nBundle(undefined, 'de');
    assert.equal(formatCount(12345), '12.345');
    setL10nBundle(undefined, 'en');
    assert.equal(formatCount(12345), '12,345');
    setL10nBundle(undefined, 'not a locale!');
    assert.equal(formatCount(7), (7).toLocaleString());
  });
});
