import assert from 'node:assert/strict';
import {
  arrayOf,
  custom,
  isFiniteNumber,
  isNonNegativeInteger,
  isRecord,
  isString,
  nullable,
  object,
  oneOf,
  optional,
  recordOf,
  refine,
  stringOfLength,
  union,
  variant,
  type Infer,
} from '../../../../src/core/shared/schema';

const file = object({ key: isString, size: isFiniteNumber, type: optional(isString) });
const message = variant('type', {
  stop: {},
  send: { text: stringOfLength(5), mode: oneOf(['auto', 'code'] as const), files: optional(arrayOf(file)) },
  ready: { lastSeq: nullable(isNonNegativeInteger) },
});
type Message = Infer<typeof message>;

describe('schema guards', () => {
  it('derives the type from the guard: optional keys, literal tags, unions', () => {
    // Compile-time: each of these must type-check as a Message.
    const ok: Message[] = [
      { type: 'stop' },
      { type: 'send', text: 'hi', mode: 'code' },
      { type: 'send', text: 'hi', mode: 'auto', files: [{ key: 'a', size: 1 }] },
      { type: 'ready', lastSeq: null },
    ];
    for (const m of ok) assert.equal(message(m), true, JSON.stringify(m));
  });

  it('refuses unknown tags, missing or ill-typed fields, and too-long strings', () => {
    const bad: unknown[] = [
      null,
      [],
      'stop',
      { type: 'nope' },
      { type: 'toString' },
      { type: '__proto__' },
      { type: 'send', text: 'hi' },
      { type: 'send', text: 'too long', mode: 'auto' },
      { type: 'send', text: 'hi', mode: 'plan' },
      { type: 'send', text: 'hi', mode: 'auto', files: [{ key: 'a', size: Infinity }] },
      { type: 'ready', lastSeq: -1 },
      { type: 'ready', lastSeq: 1.5 },
      { type: 'ready' },
    ];
    for (const m of bad) assert.equal(message(m), false, JSON.stringify(m));
  });

  it('combines: records, unions, refinements and hand-written checks', () => {
    const counts = recordOf(isFiniteNumber);
    assert.equal(counts({ a: 1, b: 2 }), true);
    assert.equal(counts({ a: '1' }), false);
    assert.equal(counts([1]), false);
    const id = union(isString, isFiniteNumber);
    assert.equal(id('x') && id(3), true);
    assert.equal(id(true), false);
    const nonEmpty = refine(isString, (s) => s.length > 0);
    assert.equal(nonEmpty(''), false);
    assert.equal(nonEmpty('a'), true);
    const even = custom<number>((v) => typeof v === 'number' && v % 2 === 0);
    assert.equal(even(2), true);
    assert.equal(even(3), false);
    assert.equal(isRecord(Object.create(null)), true);
  });

  it('leaves extra keys alone and never copies the value', () => {
    const v = { key: 'k', size: 0, extra: { deep: true } };
    assert.equal(file(v), true);
    assert.deepEqual(Object.keys(v), ['key', 'size', 'extra']);
  });
});
