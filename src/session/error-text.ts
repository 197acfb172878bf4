import { DenError, redact } from '../core/api/errors';

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

const SET_KEY: ErrorAction = { title: 'Set API Key', command: 'den.setApiKey' };
const CONFIGURE: ErrorAction = { title: 'Configure Service URL', command: 'den.configure' };
const SHOW_LOG: ErrorAction = { title: 'Show Log', command: 'den.showLog' };

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
  return message.replace(/^Service error \d{3}(?::\s*| while trying to .*$)/s, '');
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
  return { ...p, message: p.retryHint ? `${p.summary} ${p.retryHint}` : p.summary };
}

function describe(
  err: unknown,
  doing: string | undefined,
  secrets: (string | undefined)[],
): Omit<ErrorPresentation, 'message'> {
  const e = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
  const server = redact(e.message, ...secrets);
  const own = e.serverMessage === undefined ? undefined : redact(e.serverMessage, ...secrets);
  const lead = doing ? `Den could not ${doing}` : "Den's last request failed";
  switch (e.code) {
    case 'unauthorized':
      return {
        summary: `${lead}: the service rejected the API key. Set a new key.`,
        actions: [SET_KEY],
        transient: false,
      };
    case 'forbidden':
      return {
        summary: own?.trim()
          ? `${lead}: the service refused (403)${said(own)}`
          : `${lead}: this API key has no access to it (403).`,
        actions: [],
        transient: false,
      };
    case 'not_found':
      return { summary: `${lead}: it no longer exists on the service (404).`, actions: [], transient: false };
    case 'rate_limited':
      return {
        summary: `${lead}: the service is rate limiting requests (429).`,
        retryHint:
          e.retryAfter !== undefined ? `Retry in ${Math.ceil(e.retryAfter)} s.` : 'Retry in a moment.',
        actions: [],
        transient: true,
      };
    case 'config':
      return {
        summary: `${lead}: ${server}`,
        actions: /key/i.test(server) ? [SET_KEY] : [CONFIGURE],
        transient: false,
      };
    case 'network':
      return {
        summary: `${lead}: the service cannot be reached (${server}). Check the URL and your network.`,
        retryHint: 'Den retries by itself.',
        actions: [CONFIGURE, SHOW_LOG],
        transient: true,
      };
    case 'timeout':
      return {
        summary: `${lead}: the service did not answer in time.`,
        retryHint: 'Try again.',
        actions: [SHOW_LOG],
        transient: true,
      };
    case 'aborted':
      return { summary: `${lead}: cancelled.`, actions: [], transient: true };
    case 'server':
      return {
        // The service answered: it is reachable, it failed. Its own words, when it sent any.
        summary: `${lead}: the service had an error${e.status ? ` (${e.status})` : ''}${said(own ?? withoutStatusLead(server))}`,
        actions: [SHOW_LOG],
        transient: true,
      };
    case 'unsupported':
      return { summary: `${lead}: ${server}`, actions: [], transient: false };
    case 'protocol':
      return {
        summary: `${lead}: the service sent a response Den cannot read (${server}).`,
        actions: [SHOW_LOG],
        transient: true,
      };
    default:
      return {
        summary: `${lead}${e.status ? ` (${e.status})` : ''}: ${server}`,
        actions: [SHOW_LOG],
        transient: false,
      };
  }
}
