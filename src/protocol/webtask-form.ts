/**
 * The Web Task form's rules, shared by the webview (inline validation as the person types) and the
 * host (which checks again before it runs: the webview is not trusted): form → request, request →
 * form (a stored run's inputs, to re-run or show). Pure; no `vscode` import.
 */
import type { LamRunRequest } from '../core/api/types';
import { readSchemaDocument, type SchemaDocument } from '../core/webtask/json-schema';
import { EMPTY_WEB_TASK_FORM, type WebTaskForm } from './webtask-messages';

/** What the run asks (`stream` beside the request's fields, as the history stores it). */
export type WebTaskRequest = LamRunRequest & { stream: boolean };

export interface FormCheck {
  /** Messages by form field; empty: the form can run. */
  errors: Partial<Record<keyof WebTaskForm, string>>;
  /** The request, when there are no errors (without the passcode: the host adds it). */
  request?: WebTaskRequest;
  /** The schema box read (absent: the box is empty, and the run has no schema). */
  schema?: SchemaDocument;
}

const MAX_COUNT = 1_000_000;

function checkUrl(text: string): string | undefined {
  const t = text.trim();
  if (!t) return 'Enter the address of the web application, such as https://example.com.';
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return 'Enter an absolute address starting with https:// or http://.';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return 'Only http:// and https:// addresses can be run.';
  if (!u.hostname) return 'The address has no host name.';
  return undefined;
}

/** Reads the schema box: JSON in the service's form, or a JSON Schema (converted). */
export function readSchemaText(text: string): { schema?: SchemaDocument; error?: string } {
  if (!text.trim()) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `The schema is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const schema = readSchemaDocument(doc);
  if (schema.errors.length > 0) {
    const first = schema.errors.slice(0, 3).map((x) => `${x.path}: ${x.message}`);
    const more = schema.errors.length > 3 ? ` (and ${schema.errors.length - 3} more)` : '';
    return {
      schema,
      error: `Each field must be a description (a string) or an object of fields. ${first.join('; ')}${more}`,
    };
  }
  return { schema };
}

/** Checks every field and, when all are fine, builds the request. */
export function checkForm(form: WebTaskForm): FormCheck {
  const errors: FormCheck['errors'] = {};
  const url = checkUrl(form.appUrl);
  if (url) errors.appUrl = url;
  if (!form.query.trim()) errors.query = 'Say what the task should find or do.';
  const { schema, error } = readSchemaText(form.schemaText);
  if (error) errors.schemaText = error;
  let maxCount: number | undefined;
  if (form.maxCount.trim()) {
    const n = Number(form.maxCount.trim());
    if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT)
      errors.maxCount = `Enter a whole number from 1 to ${MAX_COUNT.toLocaleString('en-US')}, or leave it empty.`;
    else maxCount = n;
  }
  let zip: number | undefined;
  if (form.proxyZip.trim()) {
    if (!/^\d{1,10}$/.test(form.proxyZip.trim()))
      errors.proxyZip = 'The service takes a zip code as a number.';
    else zip = Number(form.proxyZip.trim());
  }
  if (Object.keys(errors).length > 0) return { errors, schema };

  const request: WebTaskRequest = {
    query: form.query.trim(),
    appUrl: form.appUrl.trim(),
    stream: form.stream,
  };
  if (schema) request.schema = schema.schema;
  if (maxCount !== undefined) request.maxCount = maxCount;
  if (form.mode.trim()) request.mode = form.mode.trim();
  const proxy: NonNullable<NonNullable<LamRunRequest['advanced']>['proxy']> = {};
  if (form.proxyCity.trim()) proxy.city = form.proxyCity.trim();
  if (form.proxyCountry.trim()) proxy.country = form.proxyCountry.trim();
  if (form.proxyState.trim()) proxy.state = form.proxyState.trim();
  if (zip !== undefined) proxy.zip = zip;
  if (form.blockAds || form.solveCaptchas || Object.keys(proxy).length > 0) {
    request.advanced = {};
    if (form.blockAds) request.advanced.blockAds = true;
    if (form.solveCaptchas) request.advanced.solveCaptchas = true;
    if (Object.keys(proxy).length > 0) request.advanced.proxy = proxy;
  }
  return { errors, request, schema };
}

/** A stored run's inputs as a form (to re-run it or show what it asked). */
export function formFromRequest(
  r: Omit<LamRunRequest, 'servicePasscode' | 'chatHistory'> & { stream?: boolean },
  schemaSource = '',
): WebTaskForm {
  const p = r.advanced?.proxy;
  return {
    ...EMPTY_WEB_TASK_FORM,
    appUrl: r.appUrl,
    query: r.query,
    schemaText: r.schema ? JSON.stringify(r.schema, null, 2) : '',
    schemaSource,
    maxCount: r.maxCount !== undefined ? String(r.maxCount) : '',
    mode: r.mode ?? '',
    stream: r.stream ?? true,
    blockAds: r.advanced?.blockAds ?? false,
    solveCaptchas: r.advanced?.solveCaptchas ?? false,
    proxyCity: p?.city ?? '',
    proxyCountry: p?.country ?? '',
    proxyState: p?.state ?? '',
    proxyZip: p?.zip !== undefined ? String(p.zip) : '',
  };
}
