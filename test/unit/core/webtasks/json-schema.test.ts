import assert from 'node:assert/strict';
import {
  convertJsonSchema,
  looksLikeJsonSchema,
  readSchemaDocument,
} from '../../../../src/core/webtasks/json-schema';

interface Case {
  name: string;
  input: unknown;
  schema: unknown;
  /** JSON pointers of the problems, in order. */
  problems?: string[];
  /** JSON pointers of the notes, in order. */
  notes?: string[];
  /** A pattern each listed problem message (same order) must match. */
  messages?: RegExp[];
}

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

const cases: Case[] = [
  {
    name: 'descriptions become the field strings',
    input: obj({
      title: { type: 'string', description: 'product title' },
      price: { type: 'number', description: 'price in USD' },
    }),
    schema: { title: 'product title', price: 'price in USD' },
  },
  {
    name: 'a missing description falls back to the title',
    input: obj({ t: { type: 'string', title: 'The title' } }),
    schema: { t: 'The title' },
  },
  {
    name: 'a missing description and title: the name, noted',
    input: obj({ name: { type: 'string' } }),
    schema: { name: 'name' },
    notes: ['/properties/name'],
  },
  {
    name: 'a missing description of a number: the name with a type hint',
    input: obj({ price: { type: 'number' }, stock: { type: 'integer' }, sale: { type: 'boolean' } }),
    schema: { price: 'price (number)', stock: 'stock (number)', sale: 'sale (boolean)' },
    notes: ['/properties/price', '/properties/stock', '/properties/sale'],
  },
  {
    name: 'nested objects become nested schemas',
    input: obj({
      seller: obj({ name: { description: 'seller name' }, address: obj({ city: { description: 'city' } }) }),
    }),
    schema: { seller: { name: 'seller name', address: { city: 'city' } } },
  },
  {
    name: 'the description of a nested object is noted as lost',
    input: obj({ seller: obj({ name: { description: 'n' } }, { description: 'who sells' }) }),
    schema: { seller: { name: 'n' } },
    notes: ['/properties/seller/description'],
  },
  {
    name: 'an array of objects becomes the item’s fields, reported',
    input: obj({
      reviews: {
        type: 'array',
        items: obj({ author: { description: 'who' }, stars: { description: '1-5' } }),
      },
    }),
    schema: { reviews: { author: 'who', stars: '1-5' } },
    problems: ['/properties/reviews'],
    messages: [/no list form/],
  },
  {
    name: 'an array of strings becomes one text field, reported',
    input: obj({ tags: { type: 'array', description: 'tags', items: { type: 'string' } } }),
    schema: { tags: 'tags' },
    problems: ['/properties/tags'],
    messages: [/list of values/],
  },
  {
    name: 'a top-level array converts its item, reported',
    input: { type: 'array', items: obj({ a: { description: 'A' } }) },
    schema: { a: 'A' },
    problems: ['/'],
  },
  {
    name: '$ref to #/definitions is followed',
    input: {
      ...obj({ seller: { $ref: '#/definitions/Seller' } }),
      definitions: { Seller: obj({ name: { description: 'n' } }) },
    },
    schema: { seller: { name: 'n' } },
  },
  {
    name: '$ref to #/$defs is followed, and a description beside it wins',
    input: {
      ...obj({ home: { $ref: '#/$defs/Url', description: 'home page' } }),
      $defs: { Url: { type: 'string', description: 'a URL' } },
    },
    schema: { home: 'home page' },
  },
  {
    name: 'a $ref cycle is reported and cut to a text field',
    input: {
      ...obj({ node: { $ref: '#/$defs/Node' } }),
      $defs: {
        Node: obj({
          label: { description: 'label' },
          child: { $ref: '#/$defs/Node', description: 'child node' },
        }),
      },
    },
    schema: { node: { label: 'label', child: 'child node' } },
    problems: ['/$defs/Node/properties/child/$ref'],
    messages: [/cycle through #\/\$defs\/Node/],
  },
  {
    name: 'one definition used by two fields is no cycle',
    input: {
      ...obj({ from: { $ref: '#/$defs/Place' }, to: { $ref: '#/$defs/Place' } }),
      $defs: { Place: obj({ city: { description: 'city' } }) },
    },
    schema: { from: { city: 'city' }, to: { city: 'city' } },
  },
  {
    name: 'a remote $ref is reported',
    input: obj({ x: { $ref: 'https://example.com/x.json', description: 'x' } }),
    schema: { x: 'x' },
    problems: ['/properties/x/$ref'],
    messages: [/not a local/],
  },
  {
    name: 'enum, format and pattern are reported with their pointers',
    input: obj({
      color: { type: 'string', description: 'color', enum: ['red', 'blue'] },
      when: { type: 'string', description: 'date', format: 'date' },
      sku: { type: 'string', description: 'sku', pattern: '^[A-Z]+$' },
    }),
    schema: { color: 'color', when: 'date', sku: 'sku' },
    problems: ['/properties/color/enum', '/properties/when/format', '/properties/sku/pattern'],
    messages: [/`enum` cannot be expressed/, /`format`/, /`pattern`/],
  },
  {
    name: 'required is reported at the object that has it',
    input: obj({ a: { description: 'A' } }, { required: ['a'] }),
    schema: { a: 'A' },
    problems: ['/required'],
  },
  {
    name: 'additionalProperties and bounds are reported',
    input: obj(
      { n: { type: 'integer', description: 'n', minimum: 0, maximum: 9 } },
      { additionalProperties: false },
    ),
    schema: { n: 'n' },
    problems: ['/additionalProperties', '/properties/n/minimum', '/properties/n/maximum'],
  },
  {
    name: 'a oneOf of real alternatives is reported; the field is text',
    input: obj({ v: { description: 'value', oneOf: [{ type: 'string' }, { type: 'number' }] } }),
    schema: { v: 'value' },
    problems: ['/properties/v/oneOf'],
  },
  {
    name: 'an anyOf with null only is unwrapped, noted',
    input: obj({ v: { anyOf: [obj({ a: { description: 'A' } }), { type: 'null' }] } }),
    schema: { v: { a: 'A' } },
    notes: ['/properties/v/anyOf'],
  },
  {
    name: 'a type list with null is unwrapped, noted',
    input: obj({ v: { type: ['string', 'null'], description: 'v' } }),
    schema: { v: 'v' },
    notes: ['/properties/v/type'],
  },
  {
    name: 'a type list of real choices is reported',
    input: obj({ v: { type: ['string', 'number'], description: 'v' } }),
    schema: { v: 'v' },
    problems: ['/properties/v/type'],
  },
  {
    name: 'allOf of one $ref is unwrapped (as pydantic writes it)',
    input: {
      ...obj({ s: { allOf: [{ $ref: '#/$defs/S' }], description: 'the seller' } }),
      $defs: { S: obj({ n: { description: 'n' } }) },
    },
    schema: { s: { n: 'n' } },
    notes: ['/properties/s/description'],
  },
  {
    name: 'allOf of several schemas is reported',
    input: obj({ s: { description: 's', allOf: [{ type: 'string' }, { minLength: 2 }] } }),
    schema: { s: 's' },
    problems: ['/properties/s/allOf'],
  },
  {
    name: 'an object without properties becomes a text field, reported',
    input: obj({ meta: { type: 'object', description: 'metadata' } }),
    schema: { meta: 'metadata' },
    problems: ['/properties/meta'],
  },
  {
    name: 'annotations are ignored without a word',
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      title: 'Product',
      $comment: 'c',
      ...obj({ a: { description: 'A', examples: ['x'], readOnly: true, deprecated: false } }),
    },
    schema: { a: 'A' },
  },
  {
    name: 'const and default are reported',
    input: obj({
      k: { const: 'x', description: 'k' },
      d: { type: 'string', default: 'y', description: 'd' },
    }),
    schema: { k: 'k', d: 'd' },
    problems: ['/properties/k/const', '/properties/d/default'],
  },
  {
    name: 'pointers escape ~ and / in property names',
    input: obj({ 'a/b~c': { type: 'string', description: 'x', format: 'uri' } }),
    schema: { 'a/b~c': 'x' },
    problems: ['/properties/a~1b~0c/format'],
  },
  {
    name: 'a boolean property schema is reported; the field is its name',
    input: obj({ any: true }),
    schema: { any: 'any' },
    problems: ['/properties/any'],
    notes: ['/properties/any'],
  },
  {
    name: 'an item list with enum items reports the items’ keyword',
    input: obj({
      sizes: { type: 'array', description: 'sizes', items: { type: 'string', enum: ['S', 'M'] } },
    }),
    schema: { sizes: 'sizes' },
    problems: ['/properties/sizes/items/enum', '/properties/sizes'],
  },
  {
    name: 'a top that is not an object schema converts nothing, reported',
    input: { type: 'string' },
    schema: {},
    problems: ['/'],
  },
  {
    name: 'a schema with no properties says so',
    input: { type: 'object', properties: {} },
    schema: {},
    problems: ['/'],
    messages: [/names no properties/],
  },
];

describe('webtask: JSON Schema → service schema', () => {
  it('has at least 20 cases', () => assert.ok(cases.length >= 20));
  for (const c of cases) {
    it(c.name, () => {
      const r = convertJsonSchema(c.input);
      assert.deepEqual(r.schema, c.schema);
      assert.deepEqual(
        r.problems.map((p) => p.pointer),
        c.problems ?? [],
        JSON.stringify(r.problems, null, 1),
      );
      assert.deepEqual(
        r.notes.map((p) => p.pointer),
        c.notes ?? [],
        JSON.stringify(r.notes, null, 1),
      );
      c.messages?.forEach((re, i) => assert.match(r.problems[i].message, re));
    });
  }

  it('refuses a document that is not an object', () => {
    const r = convertJsonSchema([1]);
    assert.deepEqual(r.schema, {});
    assert.equal(r.problems[0].message, 'a JSON Schema must be an object');
  });

  it('tells JSON Schema from the service form', () => {
    assert.equal(looksLikeJsonSchema({ type: 'object', properties: { a: { type: 'string' } } }), true);
    assert.equal(looksLikeJsonSchema({ $schema: 'x', anything: 1 }), true);
    assert.equal(looksLikeJsonSchema({ title: 'product title', seller: { name: 'n' } }), false);
    assert.equal(looksLikeJsonSchema({ type: 'product type' }), false);
  });

  it('reads a service-form file as it is, and a JSON Schema file converted', () => {
    const service = readSchemaDocument({ title: 'product title' });
    assert.equal(service.source, 'service');
    assert.deepEqual(service.schema, { title: 'product title' });
    assert.deepEqual(service.errors, []);
    const converted = readSchemaDocument(obj({ t: { type: 'string', description: 'T', format: 'uri' } }));
    assert.equal(converted.source, 'json-schema');
    assert.deepEqual(converted.schema, { t: 'T' });
    assert.equal(converted.problems.length, 1);
  });

  it('reports a service-form file with errors and gives no schema', () => {
    const r = readSchemaDocument({ a: 1 });
    assert.deepEqual(r.schema, {});
    assert.deepEqual(r.errors, [{ path: 'fields.a', message: 'must be a string or an object' }]);
  });
});
