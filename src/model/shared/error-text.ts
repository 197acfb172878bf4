import { DenError, redact } from '../../core/client/errors';
import { beyondStatus, isProxyOrCertificateError } from '../../core/client/http-errors';
import { formatCount, l10n } from '../../core/shared/l10n';

/** A button on an error message: its label and the command it runs. */
export interface ErrorAction {
  title: string;
  command: string;
}

export interface ErrorPresentation {
  /** What a person reads: `summary`, then `retryHint` when there is one. */
  message: string;
  /** What went wrong and what to do, without when to try again. */
  summary: string;
  /**
   * When to try again ("Retry in 12 s.", "Den retries by itself."), apart from the summary so a
   * caller with a retry schedule of its own says that instead.
   */
  retryHint?: string;
  actions: ErrorAction[];
  /** A warning rather than an error: the user did nothing wrong and it will pass. */
  transient: boolean;
}

const SET_KEY = (): ErrorAction => ({ title: l10n.t('Set API Key'), command: 'den.setApiKey' });
const CONFIGURE = (): ErrorAction => ({ title: l10n.t('Configure Service URL'), command: 'den.configure' });
const SHOW_LOG = (): ErrorAction => ({ title: l10n.t('Show Log'), command: 'den.showLog' });

/** Text ending as a sentence: a full stop added unless it already ends with one (or ? ! …). */
function sentence(text: string): string {
  const t = text.trim();
  return /[.?!…]["'”’)]?$/.test(t) ? t : `${t}.`;
}

/** ": <the service's words>." when it said something, else ".". */
function said(words: string | undefined): string {
  return words?.trim() ? `: ${sentence(words)}` : '.';
}

/** The client's "Service error 500: …" message without its lead (the status is said anyway). */
function withoutStatusLead(message: string): string {
  return message
    .replace(/^Service error \d{3}(?::\s*| while trying to .*$)/s, '')
    .replace(/\s*\(HTTP \d{3}\)(?=[.:]|$)/, '');
}

/** Whether a text names the status already (then the message does not add it again). */
function names(text: string, status: number | undefined): boolean {
  return status !== undefined && new RegExp(`\\b${status}\\b`).test(text);
}

/**
 * Says what went wrong and what to do, for a person. `doing` names the action that failed
 * ("load sessions"); without it the message speaks of Den's last request. The service's own
 * message is quoted where it helps (a 403 that says the key is read-only, a 5xx's reason). Never
 * includes a stack or a credential.
 */
export function presentError(
  err: unknown,
  doing?: string,
  ...secrets: (string | undefined)[]
): ErrorPresentation {
  const p = describe(err, doing, secrets);
  return { ...p, message: p.retryHint ? l10n.t('{0} {1}', p.summary, p.retryHint) : p.summary };
}

function describe(
  err: unknown,
  doing: string | undefined,
  secrets: (string | undefined)[],
): Omit<ErrorPresentation, 'message'> {
  const e = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
  const server = redact(e.message, ...secrets);
  // The service's words beyond its status, which the message says anyway.
  const own = beyondStatus(
    e.serverMessage === undefined ? undefined : redact(e.serverMessage, ...secrets),
    e.status,
  );
  const lead = doing ? l10n.t('Den could not {0}', doing) : l10n.t("Den's last request failed");
  switch (e.code) {
    case 'unauthorized':
      return {
        summary: l10n.t('{0}: the service rejected the API key. Set a new key.', lead),
        actions: [SET_KEY()],
        transient: false,
      };
    case 'forbidden':
      return {
        summary: own?.trim()
          ? l10n.t('{0}: the service refused (403){1}', lead, said(own))
          : l10n.t('{0}: this API key has no access to it (403).', lead),
        actions: [],
        transient: false,
      };
    case 'not_found':
      return {
        summary: l10n.t('{0}: it no longer exists on the service (404).', lead),
        actions: [],
        transient: false,
      };
    case 'rate_limited':
      return {
        summary: l10n.t('{0}: the service is rate limiting requests (429).', lead),
        retryHint:
          e.retryAfter !== undefined
            ? l10n.t('Retry in {0} s.', formatCount(Math.ceil(e.retryAfter)))
            : l10n.t('Retry in a moment.'),
        actions: [],
        transient: true,
      };
    case 'config':
      return {
        summary: l10n.t('{0}: {1}', lead, server),
        // A missing key says so in its details (its text is in the person's language).
        actions: e.details?.missing === 'key' ? [SET_KEY()] : [CONFIGURE()],
        transient: false,
      };
    case 'network':
      // A proxy or a certificate that stands in the way: its own words say what to do.
      if (isProxyOrCertificateError(e))
        return {
          summary: l10n.t('{0}: {1}', lead, sentence(server)),
          actions: [SHOW_LOG()],
          transient: false,
        };
      return {
        summary: l10n.t(
          '{0}: the service cannot be reached ({1}). Check the URL and your network.',
          lead,
          server,
        ),
        retryHint: l10n.t('Den retries by itself.'),
        actions: [CONFIGURE(), SHOW_LOG()],
        transient: true,
      };
    case 'timeout':
      return {
        summary: l10n.t('{0}: the service did not answer in time.', lead),
        retryHint: l10n.t('Try again.'),
        actions: [SHOW_LOG()],
        transient: true,
      };
    case 'aborted':
      return { summary: l10n.t('{0}: cancelled.', lead), actions: [], transient: true };
    case 'server':
      return {
        // The service answered: it is reachable, it failed. Its own words, when it sent any.
        summary:
          e.status && !names(own ?? withoutStatusLead(server), e.status)
            ? l10n.t(
                '{0}: the service had an error ({1}){2}',
                lead,
                e.status,
                said(own ?? withoutStatusLead(server)),
              )
            : l10n.t('{0}: the service had an error{1}', lead, said(own ?? withoutStatusLead(server))),
        actions: [SHOW_LOG()],
        transient: true,
      };
    case 'unsupported':
      return { summary: l10n.t('{0}: {1}', lead, server), actions: [], transient: false };
    case 'protocol':
      return {
        summary: l10n.t('{0}: the service sent a response Den cannot read ({1}).', lead, server),
        actions: [SHOW_LOG()],
        transient: true,
      };
    default:
      return {
        summary:
          e.status && !names(server, e.status)
            ? l10n.t('{0} ({1}): {2}', lead, e.status, server)
            : l10n.t('{0}: {1}', lead, server),
        actions: [SHOW_LOG()],
        transient: false,
      };
  }
}
