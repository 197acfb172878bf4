/**
 * The Web Task panel's part of the host ⇄ webview protocol (`POST /lam/run` from the editor, issue
 * 11). One panel holds the form, the live status of a run and its results table; the host owns the
 * run, the passcode, the history and every file write, the webview owns only what is shown.
 *
 * The host sends `init` once per page (on open, and again when the webview posts `ready` after a
 * reload), then deltas: `status` while a run streams, `results` once per finished run (the records
 * are sent once, never re-sent with each status), `schema` after the person picks a schema file,
 * `comparison` after Compare with Previous Run, `formErrors` when the host refuses a run. No
 * `vscode` import: the webview bundle uses it too.
 */
import { isServiceSchema, type ServiceSchema } from '../../core/webtasks/service-schema';
import {
  arrayOf,
  custom,
  isBoolean,
  isFiniteNumber,
  isNonNegativeInteger,
  isRecord,
  isString,
  nullable,
  object,
  oneOf,
  optional,
  recordOf,
  stringOfLength,
  variant,
  type Infer,
} from '../../core/shared/schema';

const MAX_TEXT = 1_000_000;
const MAX_SHORT = 4_096;
const text = stringOfLength(MAX_TEXT);
const short = stringOfLength(MAX_SHORT);

/**
 * What the form holds, as typed: the schema is the text of the editor box (service form or JSON
 * Schema, converted on run), numbers are text until checked, so a half-typed form survives a reload.
 */
export const isWebTaskForm = object({
  appUrl: short,
  query: text,
  schemaText: text,
  /** Where the schema text came from (a workspace file path, for the label); empty: typed. */
  schemaSource: short,
  maxCount: short,
  /** `''`: the service's default; `deepsearch` (experimental). */
  mode: short,
  stream: isBoolean,
  blockAds: isBoolean,
  solveCaptchas: isBoolean,
  proxyCity: short,
  proxyCountry: short,
  proxyState: short,
  proxyZip: short,
});
export type WebTaskForm = Infer<typeof isWebTaskForm>;

/** A form with nothing typed (streaming on: status arrives as the run goes). */
export const EMPTY_WEB_TASK_FORM: WebTaskForm = {
  appUrl: '',
  query: '',
  schemaText: '',
  schemaSource: '',
  maxCount: '',
  mode: '',
  stream: true,
  blockAds: false,
  solveCaptchas: false,
  proxyCity: '',
  proxyCountry: '',
  proxyState: '',
  proxyZip: '',
};

/**
 * Where a run is: `running` until the request ends (`needs-you`: a `HUMAN_INTERACTION` state while
 * the request still goes); then `done` (DONE), `needs-person` (a final `HUMAN_INTERACTION`: the task
 * is over, the app needs a person), `failed` (FAILURE), `interrupted` (the answer was cut off before
 * the final status, or the window closed while it ran), `error` (the request failed: network,
 * 4xx/5xx, an answer Den cannot read), `cancelled` (the person cancelled). Names, icons, whether it
 * is live and its actions: `webtask-states.ts`.
 */
export const WEB_TASK_PHASES = [
  'running',
  'needs-you',
  'needs-person',
  'done',
  'failed',
  'interrupted',
  'error',
  'cancelled',
] as const;
export type WebTaskPhase = (typeof WEB_TASK_PHASES)[number];

export const isWebTaskStatus = object({
  runId: isString,
  phase: oneOf(WEB_TASK_PHASES),
  /** The service's `task_status` as last received (`STARTING`, …), or `ERROR` / `CANCELLED`. */
  taskStatus: isString,
  /** The service's latest message, or Den's words for an error. */
  message: isString,
  /** What the person can do about a failure or an error; absent while all is well. */
  hint: optional(isString),
  livestreamUrl: optional(isString),
  sessionId: optional(isString),
  startedAt: isFiniteNumber,
  finishedAt: optional(isFiniteNumber),
});
export type WebTaskStatusView = Infer<typeof isWebTaskStatus>;

const isSchema = custom<ServiceSchema>(isServiceSchema);
const isRecords = custom<Record<string, unknown>[]>(arrayOf(isRecord));

export const isWebTaskResults = object({
  runId: isString,
  /** `data` as received: the webview checks it against `schema` and flattens it for the table. */
  data: isRecords,
  /** The schema the run was asked with (absent: the run had none). */
  schema: optional(isSchema),
  /** Whether the linked session is one Den can open (it is in the person's list). */
  sessionOpenable: isBoolean,
  /** The results were too big to keep in history (shown, but a reopened run will not have them). */
  dropped: optional(isBoolean),
});
export type WebTaskResultsView = Infer<typeof isWebTaskResults>;

export const isWebTaskComparison = object({
  runId: isString,
  /** The earlier run compared against; null: there is none, with `message` saying so. */
  previous: nullable(object({ runId: isString, startedAt: isFiniteNumber, rowCount: isNonNegativeInteger })),
  keyField: optional(isString),
  keySource: oneOf(['given', 'inferred', 'record'] as const),
  added: isRecords,
  removed: isRecords,
  changed: custom<
    { key: string; before: Record<string, unknown>; after: Record<string, unknown>; fields: string[] }[]
  >(arrayOf(object({ key: isString, before: isRecord, after: isRecord, fields: arrayOf(isString) }))),
  unchanged: isNonNegativeInteger,
  message: optional(isString),
});
export type WebTaskComparisonView = Infer<typeof isWebTaskComparison>;

/** Host → Web Task webview. */
export const isWebTaskHostMessage = variant('type', {
  /** The whole page: the form, the run shown (if any) and its results (if any). */
  init: {
    form: isWebTaskForm,
    /** Whether a passcode is stored (the passcode itself never reaches the webview). */
    passcodeSet: isBoolean,
    status: nullable(isWebTaskStatus),
    results: nullable(isWebTaskResults),
    comparison: nullable(isWebTaskComparison),
    /** `vscode.l10n.bundle`: the webview's texts translated (null: English). */
    l10n: nullable(recordOf(isString)),
  },
  /** The shown run's status changed (or a new run started: a new `runId` clears results and comparison). */
  status: { status: isWebTaskStatus },
  results: { results: isWebTaskResults },
  comparison: { comparison: isWebTaskComparison },
  /** A schema file was chosen: its text and path replace the form's schema. */
  schema: { schemaText: text, schemaSource: short },
  /** The host refused the run: messages by form field (the keys of `WebTaskForm`), shown inline. */
  formErrors: { errors: recordOf(isString) },
  passcode: { passcodeSet: isBoolean },
});
export type WebTaskHostMessage = Infer<typeof isWebTaskHostMessage>;

export const SAVE_FORMATS = ['json', 'jsonl', 'csv'] as const;
export type SaveFormat = (typeof SAVE_FORMATS)[number];

/** Web Task webview → host. The host acts on nothing that fails it. */
export const isWebTaskWebviewMessage = variant('type', {
  ready: {},
  /**
   * Run with these inputs (the host validates again, remembers them for the workspace, and runs).
   * `schema`: the schema box converted, when it holds a JSON Schema (see `webtask-form.ts`).
   */
  run: { form: isWebTaskForm, schema: optional(isSchema) },
  cancel: {},
  /** Open the shown run's `livestream_url`: in the editor (Simple Browser) or the system browser. */
  watchLive: { external: isBoolean },
  /** Choose a schema file (an open dialog in the workspace). */
  pickSchema: {},
  setPasscode: {},
  openJson: {},
  save: { format: oneOf(SAVE_FORMATS) },
  /** Copy the results (`json`: the records; `csv`: the table as CSV). */
  copy: { format: oneOf(['json', 'csv'] as const) },
  compare: { keyField: optional(short) },
  openSession: {},
});
export type WebTaskWebviewMessage = Infer<typeof isWebTaskWebviewMessage>;
