/** Host messages of the Web Task panel, as the host builds them, for the webview's tests. */
import {
  EMPTY_WEB_TASK_FORM,
  type WebTaskForm,
  type WebTaskHostMessage,
  type WebTaskResultsView,
  type WebTaskStatusView,
} from '../../../../src/protocol/webtask-panel/webtask-messages';

type Init = Extract<WebTaskHostMessage, { type: 'init' }>;

/** 2026-11-24 09:00 UTC: the runs' start, and the clock of the browser tests. */
export const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

export const FORM: WebTaskForm = {
  ...EMPTY_WEB_TASK_FORM,
  appUrl: 'https://shop.example/catalog',
  query: 'List every product with its price',
  schemaText: '{\n  "name": "the product name",\n  "price": "the price in euros"\n}',
  maxCount: '50',
};

export function webTaskStatus(patch: Partial<WebTaskStatusView> = {}): WebTaskStatusView {
  return {
    runId: 'run-1',
    phase: 'running',
    taskStatus: 'PROCESSING',
    message: 'Opening the catalog',
    startedAt: T0,
    ...patch,
  };
}

export function webTaskInit(patch: Partial<Omit<Init, 'type'>> = {}): Init {
  return {
    type: 'init',
    form: EMPTY_WEB_TASK_FORM,
    passcodeSet: false,
    status: null,
    results: null,
    comparison: null,
    l10n: null,
    ...patch,
  };
}

export const PRODUCT_SCHEMA = {
  name: 'the product name',
  price: 'the price in euros',
  seller: { city: 'city' },
};

export function webTaskResults(
  data: Record<string, unknown>[],
  patch: Partial<WebTaskResultsView> = {},
): WebTaskResultsView {
  return { runId: 'run-1', data, schema: PRODUCT_SCHEMA, sessionOpenable: true, ...patch };
}

/**
 * `n` products: price `n - i` (so a numeric sort reverses them; as text "10" < "9"), with a missing
 * price every 7th row, a null name every 11th and a wrong-shape seller every 13th.
 */
export function products(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const r: Record<string, unknown> = {
      name: `Product ${i}`,
      price: n - i,
      seller: { city: i % 2 ? 'Oslo' : 'Bergen' },
    };
    if (i % 7 === 3) delete r.price;
    if (i % 11 === 5) r.name = null;
    if (i % 13 === 6) r.seller = 'unknown';
    return r;
  });
}
