import { strict as assert } from 'node:assert';
import { readSchemaDocument } from '../../../../src/core/webtasks/json-schema';
import {
  checkForm as checkWith,
  formFromRequest,
  hostSchemaReader,
  readForForm,
  readSchemaText as readWith,
} from '../../../../src/protocol/webtask-panel/webtask-form';
import {
  EMPTY_WEB_TASK_FORM,
  isWebTaskForm,
  type WebTaskForm,
} from '../../../../src/protocol/webtask-panel/webtask-messages';

/** As the webview reads the form: a JSON Schema converted. */
const checkForm = (f: WebTaskForm) => checkWith(f, readSchemaDocument);
const readSchemaText = (t: string) => readWith(t, readSchemaDocument);

const ok: WebTaskForm = {
  ...EMPTY_WEB_TASK_FORM,
  appUrl: ' https://shop.example.com/list ',
  query: ' list the products ',
  schemaText: '{"name": "product name", "price": "price in USD"}',
};

describe('protocol: the Web Task form', () => {
  it('builds the request from a valid form, trimmed, without empty optional fields', () => {
    const c = checkForm(ok);
    assert.deepEqual(c.errors, {});
    assert.deepEqual(c.request, {
      query: 'list the products',
      appUrl: 'https://shop.example.com/list',
      stream: true,
      schema: { name: 'product name', price: 'price in USD' },
    });
  });

  it('names each bad field with what to do', () => {
    const c = checkForm({
      ...EMPTY_WEB_TASK_FORM,
      appUrl: 'javascript:alert(1)',
      query: '  ',
      schemaText: '{"a": 1}',
      maxCount: '2.5',
      proxyZip: '10 001',
    });
    assert.equal(c.request, undefined);
    assert.deepEqual(Object.keys(c.errors).sort(), ['appUrl', 'maxCount', 'proxyZip', 'query', 'schemaText']);
    assert.match(c.errors.appUrl!, /http/);
    assert.match(c.errors.schemaText!, /fields\.a/);
    assert.match(checkForm({ ...ok, appUrl: 'example.com' }).errors.appUrl!, /absolute/);
    assert.match(checkForm({ ...ok, appUrl: '' }).errors.appUrl!, /address/);
    assert.match(checkForm({ ...ok, maxCount: '0' }).errors.maxCount!, /whole number/);
  });

  it('reads a JSON Schema in the box and converts it; bad JSON is an error with the parser message', () => {
    const js = readSchemaText(
      JSON.stringify({ type: 'object', properties: { title: { type: 'string', description: 'the title' } } }),
    );
    assert.equal(js.error, undefined);
    assert.equal(js.schema?.source, 'json-schema');
    assert.deepEqual(js.schema?.schema, { title: 'the title' });
    assert.match(readSchemaText('{"a":').error!, /not valid JSON/);
    assert.deepEqual(readSchemaText('  '), {});
    assert.deepEqual(checkForm({ ...ok, schemaText: '' }).request?.schema, undefined);
  });

  it('puts mode, max count and the advanced options in the request only when set', () => {
    const c = checkForm({
      ...ok,
      maxCount: '25',
      mode: 'deepsearch',
      stream: false,
      solveCaptchas: true,
      proxyCountry: 'US',
      proxyZip: '10001',
    });
    assert.deepEqual(c.errors, {});
    assert.equal(c.request?.maxCount, 25);
    assert.equal(c.request?.mode, 'deepsearch');
    assert.equal(c.request?.stream, false);
    assert.deepEqual(c.request?.advanced, { solveCaptchas: true, proxy: { country: 'US', zip: 10001 } });
  });

  it('round-trips a request through the form', () => {
    const req = checkForm({ ...ok, maxCount: '5', blockAds: true, proxyCity: 'Paris' }).request!;
    const form = formFromRequest(req, 'schemas/p.denschema.json');
    assert.ok(isWebTaskForm(form));
    assert.equal(form.schemaSource, 'schemas/p.denschema.json');
    assert.deepEqual(checkForm(form).request, req);
  });

  describe('on the host (no converter: the webview sends its conversion)', () => {
    const jsonSchema = JSON.stringify({
      type: 'object',
      properties: { title: { description: 'the title' } },
    });

    it('reads the service form as the webview does', () => {
      assert.deepEqual(checkWith(ok, hostSchemaReader()).request, checkForm(ok).request);
      assert.match(
        checkWith({ ...ok, schemaText: '{"a": 1}' }, hostSchemaReader()).errors.schemaText!,
        /fields\.a/,
      );
    });

    it("runs a JSON Schema box with the webview's conversion, once that is a usable service schema", () => {
      const form = { ...ok, schemaText: jsonSchema };
      assert.deepEqual(checkWith(form, hostSchemaReader({ title: 'the title' })).request?.schema, {
        title: 'the title',
      });
      const bad = checkWith(form, hostSchemaReader({ title: 3 } as never));
      assert.equal(bad.request, undefined);
      assert.match(bad.errors.schemaText!, /fields\.title/);
      // the conversion is taken only for a JSON Schema box: a service form is read as it stands
      assert.deepEqual(checkWith(ok, hostSchemaReader({ other: 'x' })).request?.schema, {
        name: 'product name',
        price: 'price in USD',
      });
    });

    it('never runs a JSON Schema box without a conversion; opens one in the form as it is', () => {
      const check = checkWith({ ...ok, schemaText: jsonSchema }, hostSchemaReader());
      assert.equal(check.request, undefined);
      assert.match(check.errors.schemaText!, /converted by the Web Task form/);
      assert.equal(readWith(jsonSchema, readForForm).error, undefined);
      assert.match(readWith('{"a": 1}', readForForm).error!, /fields\.a/);
      assert.match(readWith('{', readForForm).error!, /not valid JSON/);
    });
  });
});
