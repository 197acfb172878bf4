import assert from 'node:assert/strict';
import { csvField, toCsv, toJsonLines, toPrettyJson } from '../../../../src/core/webtasks/writers';

describe('webtask: the CSV writer', () => {
  const quoting: [string, unknown, string][] = [
    ['plain text', 'abc', 'abc'],
    ['a comma', 'a,b', '"a,b"'],
    ['a double quote', 'say "hi"', '"say ""hi"""'],
    ['a line feed', 'a\nb', '"a\nb"'],
    ['a carriage return', 'a\rb', '"a\rb"'],
    ['CRLF', 'a\r\nb', '"a\r\nb"'],
    ['a number', 3.5, '3.5'],
    ['a boolean', false, 'false'],
    ['null', null, ''],
    ['absent', undefined, ''],
    ['a formula', '=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['a plus formula', '+cmd|/c calc', "'+cmd|/c calc"],
    ['a minus formula', '-2+3', "'-2+3"],
    ['an at formula', '@SUM(1)', "'@SUM(1)"],
    ['a leading tab', '\tx', "'\tx"],
    ['a guarded value that needs quotes too', '=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ['a negative number as text (not a formula)', '-12.5', '-12.5'],
    ['a negative number', -4, '-4'],
    ['an email in the middle', 'a@b.c', 'a@b.c'],
    ['emoji', '👍🏽 ok', '👍🏽 ok'],
    ['right-to-left text', 'שלום, עולם', '"שלום, עולם"'],
    ['combining marks', 'e\u0301', 'e\u0301'],
  ];
  for (const [what, value, expected] of quoting) {
    it(`writes ${what}`, () => assert.equal(csvField(value as never), expected));
  }

  it('can turn the formula guard off', () => {
    assert.equal(csvField('=1+1', false), '=1+1');
    assert.equal(toCsv([{ a: '=x' }], { formulaGuard: false }), 'a\r\n=x\r\n');
  });

  it('writes a header from the flattened columns, schema first, with CRLF line ends', () => {
    const csv = toCsv(
      [
        { title: 'Shoe, red', seller: { name: 'Ann', city: 'Oslo' }, tags: ['a', 'b'] },
        { title: 'Hat', price: 5, seller: { name: 'Bob "B"' } },
      ],
      { schema: { title: 't', price: 'p', seller: { name: 'n', city: 'c' } } },
    );
    assert.equal(
      csv,
      'title,price,seller.name,seller.city,tags\r\n' +
        '"Shoe, red",,Ann,Oslo,a; b\r\n' +
        'Hat,5,"Bob ""B""",,\r\n',
    );
  });

  it('writes the columns asked for, in their order', () => {
    assert.equal(toCsv([{ a: 1, b: 2, c: 3 }], { columns: ['c', 'a'] }), 'c,a\r\n3,1\r\n');
  });

  it('writes no BOM by default and one when asked', () => {
    assert.notEqual(toCsv([{ a: 1 }]).charCodeAt(0), 0xfeff);
    const withBom = toCsv([{ a: 'é' }], { bom: true });
    assert.equal(withBom, '\uFEFFa\r\né\r\n');
    assert.deepEqual([...Buffer.from(withBom, 'utf8').subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  });

  it('writes empty data as an empty file, or just the header when the schema is known', () => {
    assert.equal(toCsv([]), '');
    assert.equal(toCsv([], { schema: { a: 'a', b: { c: 'c' } } }), 'a,b.c\r\n');
  });

  it('round-trips unicode through UTF-8 bytes', () => {
    const text = 'مرحبا 👋 e\u0301 "q"';
    const csv = toCsv([{ t: text }]);
    assert.equal(Buffer.from(csv, 'utf8').toString('utf8'), csv);
    assert.ok(csv.includes('"مرحبا 👋 e\u0301 ""q"""'));
  });
});

describe('webtask: the JSON writers', () => {
  it('writes one compact record per line, nested values kept', () => {
    const out = toJsonLines([{ a: 1, b: { c: [1, 'x'] } }, { a: null }]);
    assert.equal(out, '{"a":1,"b":{"c":[1,"x"]}}\n{"a":null}\n');
    assert.deepEqual(
      out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
      [{ a: 1, b: { c: [1, 'x'] } }, { a: null }],
    );
  });

  it('escapes U+2028 and U+2029 so no line reader splits a record', () => {
    const out = toJsonLines([{ t: 'a\u2028b\u2029c\nd' }]);
    assert.equal(out, '{"t":"a\\u2028b\\u2029c\\nd"}\n');
    assert.equal(out.split(/\r\n|[\n\r\u2028\u2029]/).length, 2);
    assert.deepEqual(JSON.parse(out), { t: 'a\u2028b\u2029c\nd' });
  });

  it('writes unicode as itself', () => {
    assert.equal(toJsonLines([{ t: '👍🏽 שלום e\u0301' }]), '{"t":"👍🏽 שלום e\u0301"}\n');
  });

  it('writes empty data as an empty JSONL file and an empty JSON array', () => {
    assert.equal(toJsonLines([]), '');
    assert.equal(toPrettyJson([]), '[]\n');
  });

  it('writes pretty JSON indented, with the same escapes', () => {
    const out = toPrettyJson([{ a: { b: 'x\u2028' } }]);
    assert.equal(out, '[\n  {\n    "a": {\n      "b": "x\\u2028"\n    }\n  }\n]\n');
    assert.deepEqual(JSON.parse(out), [{ a: { b: 'x\u2028' } }]);
  });
});
