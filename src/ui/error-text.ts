import { DenError, redact } from '../core/api/errors';

/** A button on an error message: its label and the command it runs. */
export interface ErrorAction {
  title: string;
  command: string;
}

export interface ErrorPresentation {
  message: string;
  actions: ErrorAction[];
  /** A warning rather than an error: the user did nothing wrong and it will pass. */
  transient: boolean;
}

const SET_KEY: ErrorAction = { title: 'Set API Key', command: 'den.setApiKey' };
const CONFIGURE: ErrorAction = { title: 'Configure Service URL', command: 'den.configure' };
const SHOW_LOG: ErrorAction = { title: 'Show Log', command: 'den.showLog' };

/**
 * Says what went wrong and what to do, for a person. `doing` names the action that failed
 * ("load sessions"). Never includes a stack or a credential.
 */
export function presentError(
  err: unknown,
  doing: string,
  ...secrets: (string | undefined)[]
): ErrorPresentation {
  const e = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
  const server = redact(e.message, ...secrets);
  const lead = `Den could not ${doing}`;
  switch (e.code) {
    case 'unauthorized':
      return {
        message: `${lead}: the service rejected the API key. Set a new key.`,
        actions: [SET_KEY],
        transient: false,
      };
    case 'forbidden':
      return { message: `${lead}: this API key has no access to it (403).`, actions: [], transient: false };
    case 'not_found':
      return { message: `${lead}: it no longer exists on the service (404).`, actions: [], transient: false };
    case 'rate_limited': {
      const wait =
        e.retryAfter !== undefined ? ` Retry in ${Math.ceil(e.retryAfter)} s.` : ' Retry in a moment.';
      return {
        message: `${lead}: the service is rate limiting requests (429).${wait}`,
        actions: [],
        transient: true,
      };
    }
    case 'config':
      return {
        message: `${lead}: ${server}`,
        actions: /key/i.test(server) ? [SET_KEY] : [CONFIGURE],
        transient: false,
      };
    case 'network':
      return {
        message: `${lead}: the service cannot be reached (${server}). Check the URL and your network. Den retries by itself.`,
        actions: [CONFIGURE, SHOW_LOG],
        transient: true,
      };
    case 'timeout':
      return {
        message: `${lead}: the service did not answer in time. Try again.`,
        actions: [SHOW_LOG],
        transient: true,
      };
    case 'aborted':
      return { message: `${lead}: cancelled.`, actions: [], transient: true };
    case 'server':
      return {
        // The client's own messages already name the status ("Service error 500: …").
        message:
          e.status && server.includes(String(e.status))
            ? `${lead}: ${server}`
            : `${lead}: the service failed${e.status ? ` (${e.status})` : ''}: ${server}`,
        actions: [SHOW_LOG],
        transient: true,
      };
    case 'unsupported':
      return { message: `${lead}: ${server}`, actions: [], transient: false };
    case 'protocol':
      return {
        message: `${lead}: the service sent a response Den cannot read (${server}).`,
        actions: [SHOW_LOG],
        transient: true,
      };
    default:
      return {
        message: `${lead}${e.status ? ` (${e.status})` : ''}: ${server}`,
        actions: [SHOW_LOG],
        transient: false,
      };
  }
}
