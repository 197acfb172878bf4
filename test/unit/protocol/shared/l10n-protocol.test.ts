import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { formatBytes, relativeTime, validateTitle } from '../../../../src/core/shared/format';
import { fileStatusText, fileStatusWords } from '../../../../src/protocol/session-panel/file-status-text';
import { checkForm, readServiceForm } from '../../../../src/protocol/webtask-panel/webtask-form';
import { EMPTY_WEB_TASK_FORM } from '../../../../src/protocol/webtask-panel/webtask-messages';

describe('protocol: texts a person reads go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('format.ts: times, sizes, titles and file states in the translated words', () => {
    setL10nBundle(
      {
        '{0} min ago': '⟦vor {0} Min.⟧',
        '{0} KB': '⟦{0} kB⟧',
        'Keep titles to 200 characters (this one has {0}).': '⟦höchstens 200 ({0})⟧',
        modified: '⟦geändert⟧',
        'has conflicts': '⟦hat Konflikte⟧',
        '{0} conflicts': '⟦{0} Konflikte⟧',
        '1 line added': '⟦1 Zeile hinzu⟧',
        '{0} lines removed': '⟦{0} Zeilen weg⟧',
      },
      'de',
    );
    assert.equal(relativeTime(0, 5 * 60_000), '⟦vor 5 Min.⟧');
    assert.equal(formatBytes(1536), '⟦1.5 kB⟧');
    assert.equal(validateTitle('x'.repeat(201)), '⟦höchstens 200 (201)⟧');
    assert.equal(fileStatusText({ state: 'modified', added: 1, removed: 0 }), '⟦geändert⟧ · +1');
    assert.equal(
      fileStatusWords({ state: 'conflicts', added: 1, removed: 3, conflicts: 2 }),
      '⟦hat Konflikte⟧, ⟦2 Konflikte⟧, ⟦1 Zeile hinzu⟧, ⟦3 Zeilen weg⟧',
    );
  });

  it('webtask-form.ts: form messages translated, counts in the person’s locale', () => {
    setL10nBundle(
      {
        'Say what the task should find or do.': '⟦Was soll die Aufgabe tun?⟧',
        'Enter a whole number from 1 to {0}, or leave it empty.': '⟦1 bis {0}⟧',
      },
      'de',
    );
    const { errors } = checkForm(
      { ...EMPTY_WEB_TASK_FORM, appUrl: 'https://example.com', query: ' ', maxCount: '0' },
      readServiceForm,
    );
    assert.equal(errors.query, '⟦Was soll die Aufgabe tun?⟧');
    assert.equal(errors.maxCount, `⟦1 bis ${(1_000_000).toLocaleString('de')}⟧`);
  });

  it('without a bundle the English text is unchanged', () => {
    const { errors } = checkForm(
      { ...EMPTY_WEB_TASK_FORM, appUrl: 'https://example.com', query: 'q', maxCount: '0' },
      readServiceForm,
    );
    assert.equal(errors.maxCount, 'Enter a whole number from 1 to 1,000,000, or leave it empty.');
    assert.equal(fileStatusWords({ state: 'new', added: 1, removed: 0 }), 'new, 1 line added');
  });
});
