import type { DenError } from '../../core/api/errors';

/**
 * The context keys behind the Sessions view's error welcomes (package.json `viewsWelcome`):
 * `den.authError` ("The service rejected your API key") and `den.offline` ("Den cannot reach the
 * service right now"). Both follow the outcome of the view's own last list load and nothing else:
 * another request that succeeds meanwhile (a session's turns, a panel) does not bring the list back,
 * so it must not take the explanation away from an empty view. No `vscode` import.
 */
export interface WelcomeKeys {
  'den.authError': boolean;
  'den.offline': boolean;
}

export function welcomeKeys(listError: DenError | undefined): WelcomeKeys {
  return {
    'den.authError': listError?.code === 'unauthorized',
    // a 5xx is not "offline": the service answered, so the view quotes what it said instead
    'den.offline': listError?.fault === 'network',
  };
}

/** Errors with their own welcome content in the view; any other is shown as the view's message. */
export function welcomeExplains(e: DenError): boolean {
  const keys = welcomeKeys(e);
  return keys['den.authError'] || keys['den.offline'];
}
