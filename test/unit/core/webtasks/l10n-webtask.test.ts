import assert from 'node:assert/strict';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { convertJsonSchema } from '../../../../src/core/webtasks/json-schema';
import { checkResult } from '../../../../src/core/webtasks/result-check';
import { serviceSchemaErrors } from '../../../../src/core/webtasks/service-schema';

describe('core/webtasks: issue texts go through l10n.t', () => {
  afterEach(() => setL10nBundle(undefined));

  it('a conversion reports its problems and notes in the translated words, args in place', () => {
    setL10nBundle(
      {
        'a JSON Schema must be an object': '⟦kein Objekt⟧',
        'unknown type "{0}"': '⟦Typ {0}?⟧',
        'no description: the field is described as "{0}"': '⟦ohne Beschreibung: {0}⟧',
      },
      'de',
    );
    assert.deepEqual(convertJsonSchema(3).problems, [{ pointer: '/', message: '⟦kein Objekt⟧' }]);
    const c = convertJsonSchema({ type: 'object', properties: { a: { type: 'thing' } } });
    assert.ok(
      c.problems.some((p) => p.message === '⟦Typ thing?⟧'),
      JSON.stringify(c.problems),
    );
    assert.ok(
      c.notes.some((n) => n.message.startsWith('⟦ohne Beschreibung: a')),
      JSON.stringify(c.notes),
    );
  });

  it('service schema errors and result problems read the translated words', () => {
    setL10nBundle(
      {
        'must be an object of fields': '⟦Objekt aus Feldern⟧',
        'item {0} is a {1}, not a record; skipped': '⟦Eintrag {0} ({1}) übersprungen⟧',
      },
      'de',
    );
    assert.deepEqual(serviceSchemaErrors(1), [{ path: 'fields', message: '⟦Objekt aus Feldern⟧' }]);
    assert.deepEqual(checkResult([{ a: 'x' }, 5], { a: 'A' }).dataProblems, [
      '⟦Eintrag 1 (number) übersprungen⟧',
    ]);
  });

  it('without a bundle the English text is unchanged', () => {
    assert.deepEqual(serviceSchemaErrors(1), [{ path: 'fields', message: 'must be an object of fields' }]);
  });
});
