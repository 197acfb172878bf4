import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { readSchemaDocument } from '../../../../src/core/webtasks/json-schema';

/** The JSON schema contributed for `*.denschema.json` (package.json `jsonValidation`). */
const file = path.join(__dirname, '../../../../../media/denschema.schema.json');

describe('media/denschema.schema.json (the editor check of schema files)', () => {
  const schema: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const validate = new Ajv({ strict: false }).compile(schema as object);

  const accepted: [string, unknown][] = [
    ['a flat service schema', { name: 'the product name', price: 'the price in USD' }],
    ['a nested service schema', { product: { name: 'name', seller: { city: 'city' } } }],
    [
      'a JSON Schema document by $schema',
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
    ],
    [
      'a JSON Schema document by type and properties',
      { type: 'object', properties: { a: { type: 'string' } } },
    ],
    ['a JSON Schema list of objects', { type: 'array', items: { type: 'object', properties: { a: {} } } }],
  ];
  const refused: [string, unknown][] = [
    ['an empty object', {}],
    ['a number value', { price: 3 }],
    ['a list value', { tags: ['a'] }],
    ['an empty nested object', { a: {} }],
    ['an empty description', { a: '' }],
    ['a list', ['a']],
  ];

  for (const [what, doc] of accepted) {
    it(`accepts ${what}, as Den does`, () => {
      assert.equal(validate(doc), true, JSON.stringify(validate.errors));
      assert.equal(
        readSchemaDocument(doc).source === 'service' ? readSchemaDocument(doc).errors.length : 0,
        0,
      );
    });
  }
  for (const [what, doc] of refused) {
    it(`refuses ${what}, as Den does`, () => {
      assert.equal(validate(doc), false);
      assert.ok(readSchemaDocument(doc).errors.length > 0, 'Den would run it');
    });
  }

  it('offers snippets for fields and a JSON Schema document', () => {
    const text = readFileSync(file, 'utf8');
    assert.match(text, /defaultSnippets/);
    assert.match(text, /"minProperties": 1/);
  });
});
