import assert from 'node:assert/strict';
import {
  describeSchemaErrors,
  fieldPath,
  isServiceSchema,
  MAX_SCHEMA_DEPTH,
  schemaLeaves,
  serviceSchemaErrors,
} from '../../../../src/core/webtasks/service-schema';

describe('webtask: the service schema form', () => {
  it('accepts strings and nested objects of the same form', () => {
    const schema = { title: 'product title', seller: { name: 'seller name', address: { city: 'city' } } };
    assert.deepEqual(serviceSchemaErrors(schema), []);
    assert.equal(isServiceSchema(schema), true);
  });

  const bad: [string, unknown, string[]][] = [
    ['a list', ['title'], ['fields: must be an object of fields']],
    ['null', null, ['fields: must be an object of fields']],
    ['an empty schema', {}, ['fields: must name at least one field']],
    ['a number value', { price: 3 }, ['fields.price: must be a string or an object']],
    ['a nested list', { address: { city: ['x'] } }, ['fields.address.city: must be a string or an object']],
    ['a null value', { a: null }, ['fields.a: must be a string or an object']],
    ['a blank description', { a: '  ' }, ['fields.a: must describe the field (empty string)']],
    ['an empty nested object', { a: {} }, ['fields.a: must name at least one field']],
    ['an empty field name', { '': 'x' }, ['fields[""]: a field name must not be empty']],
    ['an odd field name', { 'unit price': true }, ['fields["unit price"]: must be a string or an object']],
    [
      'several errors',
      { a: 1, b: { c: false, d: 'ok' } },
      ['fields.a: must be a string or an object', 'fields.b.c: must be a string or an object'],
    ],
  ];
  for (const [what, value, errors] of bad) {
    it(`refuses ${what} with a precise path`, () => {
      assert.deepEqual(
        serviceSchemaErrors(value).map((e) => `${e.path}: ${e.message}`),
        errors,
      );
      assert.equal(isServiceSchema(value), false);
    });
  }

  it(`refuses nesting deeper than ${MAX_SCHEMA_DEPTH} levels, once`, () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < MAX_SCHEMA_DEPTH + 5; i++) deep = { n: deep };
    const errors = serviceSchemaErrors(deep);
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /nests deeper than 32 levels/);
  });

  it('names the root as asked and joins errors as lines', () => {
    const errors = serviceSchemaErrors({ a: 1, b: [] }, 'schema');
    assert.equal(
      describeSchemaErrors(errors),
      'schema.a: must be a string or an object\nschema.b: must be a string or an object',
    );
  });

  it('writes identifier keys with a dot and others quoted', () => {
    assert.equal(fieldPath('fields', 'city_2'), 'fields.city_2');
    assert.equal(fieldPath('fields', 'a.b'), 'fields["a.b"]');
  });

  it('lists the leaves depth first in key order', () => {
    const leaves = schemaLeaves({ a: 'A', b: { c: 'C', d: { e: 'E' } }, f: 'F' });
    assert.deepEqual(
      leaves.map((l) => [l.path.join('.'), l.description]),
      [
        ['a', 'A'],
        ['b.c', 'C'],
        ['b.d.e', 'E'],
        ['f', 'F'],
      ],
    );
  });
});
