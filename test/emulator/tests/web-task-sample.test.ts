import assert from 'node:assert/strict';
import { readSchemaDocument } from '../../../src/core/webtasks/json-schema';
import { WEB_TASK_SAMPLE, webTaskSampleFiles } from '../web-task-sample';

describe('emulator: the demo web task sample', () => {
  it('its schema file is in the service form, and its JSON Schema converts with what it cannot say reported', () => {
    const files = webTaskSampleFiles();
    const service = readSchemaDocument(JSON.parse(files[WEB_TASK_SAMPLE.schemaPath]));
    assert.equal(service.source, 'service');
    assert.deepEqual(service.errors, []);
    assert.deepEqual(service.schema, WEB_TASK_SAMPLE.schema);
    const converted = readSchemaDocument(JSON.parse(files[WEB_TASK_SAMPLE.jsonSchemaPath]));
    assert.equal(converted.source, 'json-schema');
    assert.deepEqual(converted.errors, []);
    assert.deepEqual(Object.keys(converted.schema), ['title', 'price', 'condition', 'photos']);
    const pointers = converted.problems.map((p) => p.pointer);
    for (const p of ['/properties/condition/enum', '/properties/photos', '/required'])
      assert.ok(pointers.includes(p), `${p} in ${pointers.join(', ')}`);
  });
});
