/**
 * The demo's web task (README, docs/web-tasks.md), also what the end-to-end test types: a schema
 * file in the service's form, a JSON Schema file to convert, and a query whose reruns differ
 * (`drift`) and leave gaps (`gaps`), so Compare with Previous Run and the table's highlights have
 * something to show.
 */
export const WEB_TASK_SAMPLE = {
  appUrl: 'https://shop.example.com/laptops',
  query: 'List the laptops on sale with their prices (drift, gaps)',
  schemaPath: 'schemas/laptops.denschema.json',
  schema: {
    url: 'link to the product page',
    name: 'product name as shown',
    price: 'price in USD, a number',
    seller: { name: 'seller name', rating: 'seller rating from 1 to 5' },
  },
  jsonSchemaPath: 'schemas/listing.schema.json',
  jsonSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Listing',
    type: 'object',
    properties: {
      title: { type: 'string', description: 'listing title' },
      price: { type: 'number', description: 'asking price in USD' },
      condition: { enum: ['new', 'used'], description: 'new or used' },
      photos: { type: 'array', items: { type: 'string' } },
    },
    required: ['title'],
  },
} as const;

/** The files the demo workspace gets (path → text). */
export function webTaskSampleFiles(): Record<string, string> {
  return {
    [WEB_TASK_SAMPLE.schemaPath]: `${JSON.stringify(WEB_TASK_SAMPLE.schema, null, 2)}\n`,
    [WEB_TASK_SAMPLE.jsonSchemaPath]: `${JSON.stringify(WEB_TASK_SAMPLE.jsonSchema, null, 2)}\n`,
  };
}
