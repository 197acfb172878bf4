/**
 * The Web Task form's rules, shared by the webview (inline validation as the person types) and the
 * host (which checks again before it runs: the webview is not trusted): form → request, request →
 * form (a stored run's inputs, to re-run or show). Pure; no `vscode` import.
 *
 * How the schema box is read is passed in. The webview converts a JSON Schema
 * (`readSchemaDocument`) and posts the converted schema with `run`; the host reads the service's
 * form itself and takes the webview's conversion only for a box that holds a JSON Schema, after
 * checking that it is a usable service schema (`hostSchemaReader`). So the host bundle carries no
 * converter, and a JSON Schema never reaches the service unconverted.
 */
import type { LamRunRequest } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import { looksLikeJsonSchema, type SchemaDocument } from '../../core/webtasks/json-schema';
import { serviceSchemaErrors, type ServiceSchema } from '../../core/webtasks/service-schema';
import { EMPTY_WEB_TASK_FORM, type WebTaskForm } from './webtask-messages';

/** Reads a parsed schema box: the schema and how it was obtained (see `SchemaDocument`). */
export type SchemaReader = (doc: unknown) => SchemaDocument;

/** The service's form only: a document that is one as it stands. */
export function readServiceForm(doc: unknown): SchemaDocument {
  const errors = serviceSchemaErrors(doc);
  const schema = errors.length === 0 ? (doc as ServiceSchema) : {};
  return { schema, notes: [], problems: [], source: 'service', errors };
}

/**
 * The host's reader for a run: the service's form as it stands; a JSON Schema through `converted`
 * (what the webview made of it), which must itself be a usable service schema. A JSON Schema
 * without a conversion is refused: it never reaches the service unconverted.
 */
export function hostSchemaReader(converted?: ServiceSchema): SchemaReader {
  return (doc) => {
    if (!looksLikeJsonSchema(doc)) return readServiceForm(doc);
    if (converted !== undefined) return { ...readServiceForm(converted), source: 'json-schema' };
    return {
      schema: {},
      notes: [],
      problems: [],
      source: 'json-schema',
      errors: [
        {
          path: 'fields',
          message: l10n.t('a JSON Schema is converted by the Web Task form: run it from there'),
        },
      ],
    };
  };
}

/**
 * The host's reader for a file to open in the form: the service's form as it stands, or a JSON
 * Schema taken as it is (the form converts it, and lists what it cannot say).
 */
export const readForForm: SchemaReader = (doc) =>
  looksLikeJsonSchema(doc)
    ? { schema: {}, notes: [], problems: [], source: 'json-schema', errors: [] }
    : readServiceForm(doc);

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
  if (!t) return l10n.t('Enter the address of the web application, such as https://example.com.');
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return l10n.t('Enter an absolute address starting with https:// or http://.');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    return l10n.t('Only http:// and https:// addresses can be run.');
  if (!u.hostname) return l10n.t('The address has no host name.');
  return undefined;
}

/** Reads the schema box: JSON in the service's form, or a JSON Schema (as `read` converts it). */
export function readSchemaText(
  text: string,
  read: SchemaReader,
): { schema?: SchemaDocument; error?: string } {
  if (!text.trim()) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: l10n.t('The schema is not valid JSON: {0}', e instanceof Error ? e.message : String(e)) };
  }
  const schema = read(doc);
  if (schema.errors.length > 0) {
    const first = schema.errors
      .slice(0, 3)
      .map((x) => `${x.path}: ${x.message}`)
      .join('; ');
    const more = schema.errors.length - 3;
    return {
      schema,
      error:
        more > 0
          ? l10n.t(
              'Each field must be a description (a string) or an object of fields. {0} (and {1} more)',
              first,
              more,
            )
          : l10n.t('Each field must be a description (a string) or an object of fields. {0}', first),
    };
  }
  return { schema };
}

/** Checks every field and, when all are fine, builds the request (the schema box read by `read`). */
export function checkForm(form: WebTaskForm, read: SchemaReader): FormCheck {
  const errors: FormCheck['errors'] = {};
  const url = checkUrl(form.appUrl);
  if (url) errors.appUrl = url;
  if (!form.query.trim()) errors.query = l10n.t('Say what the task should find or do.');
  const { schema, error } = readSchemaText(form.schemaText, read);
  if (error) errors.schemaText = error;
  let maxCount: number | undefined;
  if (form.maxCount.trim()) {
    const n = Number(form.maxCount.trim());
    if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT)
      errors.maxCount = l10n.t(
        'Enter a whole number from 1 to {0}, or leave it empty.',
        formatCount(MAX_COUNT),
      );
    else maxCount = n;
  }
  let zip: number | undefined;
  if (form.proxyZip.trim()) {
    if (!/^\d{1,10}$/.test(form.proxyZip.trim()))
      errors.proxyZip = l10n.t('The service takes a zip code as a number.');
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
