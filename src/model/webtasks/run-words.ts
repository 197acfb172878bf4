/**
 * The Web Task runner's words and choices, pure (no `vscode`): the phase of a task status, what a
 * failure or a request error says and what to try, the name a saved file gets, and which earlier run
 * a run is compared with.
 */
import { DenError, redact } from '../../core/client/errors';
import { beyondStatus } from '../../core/client/http-errors';
import { l10n } from '../../core/shared/l10n';
import { CANCELLED, ERROR, INTERRUPTED } from '../../protocol/webtask-panel/webtask-states';
import type { WebTaskRun } from './web-task-history';

export { CANCELLED, ERROR, INTERRUPTED, phaseOf } from '../../protocol/webtask-panel/webtask-states';

/** How an interrupted run was cut off: its event stream, its single JSON answer, or the window closed. */
export type InterruptedCause = 'stream' | 'answer' | 'window';

/** What an interrupted run says, and what to try: the advice fits the mode it ran in. */
export function interruptedOutcome(cause: InterruptedCause): { message: string; hint: string } {
  switch (cause) {
    case 'stream':
      return {
        message: l10n.t('Interrupted: the status stream ended before the task finished.'),
        hint: l10n.t(
          'Run it again; if streams keep getting cut (a proxy that closes long connections), turn Streaming off to get one answer at the end.',
        ),
      };
    case 'answer':
      return {
        message: l10n.t("Interrupted: the service's answer was cut off before it ended."),
        hint: l10n.t(
          'Run it again; if it keeps happening, check your connection or proxy (Den: Show Log says more).',
        ),
      };
    case 'window':
      return {
        message: l10n.t('Interrupted: the window closed before the task finished.'),
        hint: l10n.t('Run it again.'),
      };
  }
}

/** What to do about a task that ended waiting for a person (a final `HUMAN_INTERACTION`). */
export function needsPersonHint(hasLiveLink: boolean): string {
  return hasLiveLink
    ? l10n.t(
        'The task is over and the app needs a person (a login, a CAPTCHA): Watch Live or Open in Browser, do what it asks, then run the task again.',
      )
    : l10n.t(
        'The task is over and the app needs a person (a login, a CAPTCHA): open the app, do what it asks, then run the task again.',
      );
}

/** What to try after the service reported FAILURE, from its message. */
export function failureHint(message: string): string {
  const m = message.toLowerCase();
  if (/captcha|robot|bot detect|verify you are human/.test(m))
    return l10n.t('The site showed a CAPTCHA: turn on Solve CAPTCHAs (advanced) and run again.');
  if (/block|denied|forbidden|403|geo|region|country/.test(m))
    return l10n.t(
      'The site refused the browser: try a proxy country (advanced), block ads, or run again later.',
    );
  if (/load|404|502|503|dns|not found|unreachable|timed? ?out/.test(m))
    return l10n.t('Check the app URL opens in a browser, then run again.');
  return l10n.t(
    'Check the app URL, simplify the query (one kind of record, fewer fields), and run again; for sites with CAPTCHAs turn on Solve CAPTCHAs.',
  );
}

/** A run's outcome when the request itself failed. */
export interface ErrorOutcome {
  /** `ERROR`, `INTERRUPTED` (the answer was cut off), or `CANCELLED` when the person cancelled. */
  taskStatus: string;
  message: string;
  hint?: string;
}

/** How the run asked: streamed (server-sent states) or one JSON answer at the end. */
export interface RunMode {
  stream: boolean;
}

/**
 * What a request error says and what to try, for the mode the run used (`secrets` are removed
 * from any text quoted). A cut answer is `INTERRUPTED`, every other failure `ERROR`.
 */
export function errorOutcome(err: unknown, mode: RunMode, ...secrets: (string | undefined)[]): ErrorOutcome {
  if (!(err instanceof DenError)) {
    const text = redact(err instanceof Error ? err.message : String(err), ...secrets);
    return {
      taskStatus: ERROR,
      message: l10n.t('The web task could not run: {0}', text),
      hint: l10n.t('Run it again; if it keeps failing, Den: Show Log says more.'),
    };
  }
  // The service's words beyond its status, which the message says anyway.
  const words = beyondStatus(err.serverMessage, err.status);
  const own = words ? ` (${redact(words, ...secrets)})` : '';
  switch (err.code) {
    case 'aborted':
      return { taskStatus: CANCELLED, message: l10n.t('Cancelled.') };
    case 'unauthorized':
      return {
        taskStatus: ERROR,
        message: l10n.t('The service rejected the API key (401){0}.', own),
        hint: l10n.t('Sign in again or check the API key: Den: Set API Key.'),
      };
    case 'forbidden':
      return {
        taskStatus: ERROR,
        message: l10n.t('The service refused the web task (403){0}.', own),
        hint: l10n.t('Web tasks need the service passcode: Den: Set Web Task Passcode.'),
      };
    case 'rate_limited':
      return {
        taskStatus: ERROR,
        message: l10n.t('The service is busy: too many requests (429){0}.', own),
        hint:
          err.retryAfter !== undefined
            ? l10n.t('Wait {0} s, then run it again.', Math.ceil(err.retryAfter))
            : l10n.t('Wait a little, then run it again.'),
      };
    case 'server':
      return {
        taskStatus: ERROR,
        message: l10n.t('The service failed ({0}){1}.', err.status ?? '5xx', own),
        hint: l10n.t('It is not your input: run it again later.'),
      };
    case 'network':
    case 'timeout':
      return {
        taskStatus: ERROR,
        message: l10n.t('Den could not reach the service: {0}', redact(err.message, ...secrets)),
        hint: l10n.t(
          'Check your connection and the service URL (Den: Configure Service URL), then run it again.',
        ),
      };
    case 'config':
      return {
        taskStatus: ERROR,
        message: redact(err.message, ...secrets),
        hint: l10n.t('Set the service URL and API key (Den: Configure Service URL, Den: Set API Key).'),
      };
    case 'protocol':
      if (err.details?.truncated === true)
        return { taskStatus: INTERRUPTED, ...interruptedOutcome(mode.stream ? 'stream' : 'answer') };
      return {
        taskStatus: ERROR,
        message: l10n.t("The service's answer could not be read: {0}", redact(err.message, ...secrets)),
        hint: l10n.t('Run it again; if it keeps failing, Den: Show Log says more.'),
      };
    default:
      return {
        taskStatus: ERROR,
        message: l10n.t('The web task failed: {0}', redact(err.message, ...secrets)),
        hint: l10n.t('Check the inputs, then run it again.'),
      };
  }
}

/** A file name from the query: lower-case words joined by `-`, at most 50 characters. */
export function slugOf(query: string): string {
  const slug = query
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return slug || 'web-task';
}

/** The name a Save dialog offers: `<slug of the query>.<ext>`. */
export function saveFileName(query: string, ext: string): string {
  return `${slugOf(query)}.${ext}`;
}

/**
 * The run `run` is compared with: in `runs` (newest first, as the history lists them), the first
 * run after it with the same app URL and query that has stored data.
 */
export function previousRun(runs: readonly WebTaskRun[], run: WebTaskRun): WebTaskRun | undefined {
  const at = runs.findIndex((r) => r.id === run.id);
  const older = at >= 0 ? runs.slice(at + 1) : runs.filter((r) => r.startedAt < run.startedAt);
  return older.find(
    (r) => r.dataBytes > 0 && r.inputs.appUrl === run.inputs.appUrl && r.inputs.query === run.inputs.query,
  );
}

/** What the person is looking at when a run comes to need them. */
export interface NeedsPersonLooking {
  /** The window has focus. */
  windowFocused: boolean;
  /** The Web Task panel is visible and shows that run. */
  panelShowsRun: boolean;
  /** A later run was started in this window since. */
  newerRunStarted: boolean;
}

/**
 * Whether a run that needs a person is notified (as the session panel's attention rules do): not
 * while the person looks at it (window focused, its panel visible), and not once a later run started.
 */
export function notifyNeedsPerson(looking: NeedsPersonLooking): boolean {
  if (looking.newerRunStarted) return false;
  return !(looking.windowFocused && looking.panelShowsRun);
}
