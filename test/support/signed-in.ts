/**
 * One test against its own service, with Den reset and signed in to it: the recipe, without VS Code.
 *
 * `signedIn(driver, options)` registers mocha hooks in the suite it is called in. Before each test:
 * Den's API (`driver.activate`), a fresh service (`options.start`), whatever the test watches
 * (`driver.watch`), Den reset, then signed in to the service unless `signIn` is false. After each
 * test everything is undone in the reverse order, whatever failed. Nothing lives from one test to
 * the next (the address of a closed service may, with no key: the next setup replaces or clears it). The part that drives Den (settings, the key, VS Code's windows) is the driver's: the
 * extension host's is in test/ext/fixtures.ts.
 */

/** Registers something that undoes a step; undone after the test, the last registered first. */
export type Defer = (undo: () => unknown) => void;

/** Where Den signs in: a base URL and a key; closed after the test. */
export interface Service {
  readonly url: string;
  readonly key: string;
  close(): Promise<void>;
}

/** How a test host drives Den. `W` is what `watch` sets up for the test to read (captured messages…). */
export interface DenDriver<Api, W> {
  /** The running Den's API (activating it once). */
  activate(): Promise<Api>;
  /** Before Den is reset: sets up what the test reads; `defer` undoes it after Den is reset again. */
  watch(api: Api, defer: Defer): W;
  /**
   * Back to a clean Den: nothing live, no key, default settings. With `keepAddress` the service's
   * address may stay: Den then has no key and makes no request, and the next step replaces the
   * address (a sign-in) or clears it (the next test's setup). A settings write is the dearest step
   * of a reset, so the address is written once per test instead of twice.
   */
  reset(api: Api, keepAddress: boolean): Promise<void>;
  /** Points Den at `service` and signs in with its key; resolves once Den is signed in. */
  signIn(api: Api, service: Service): Promise<void>;
}

export interface SignedInOptions<S extends Service> {
  /** Starts this test's own service. */
  start(): Promise<S>;
  /** Sign Den in before the test (default), or leave it reset and signed out. */
  signIn?: boolean;
}

/** The current test's Den, service and watchers; read only while a test (or its hooks) runs. */
export interface SignedIn<Api, S extends Service, W> {
  readonly api: Api;
  readonly service: S;
  readonly watched: W;
  /** Closes the test's service (if it is still open) and starts another in its place; Den is left as it is. */
  replaceService(start: () => Promise<S>): Promise<S>;
  /** `replaceService`, then Den reset and signed in to the new service. */
  restart(start: () => Promise<S>): Promise<S>;
}

interface State<Api, S, W> {
  api: Api;
  service: S;
  watched: W;
}

export function signedIn<Api, S extends Service, W>(
  driver: DenDriver<Api, W>,
  options: SignedInOptions<S>,
): SignedIn<Api, S, W> {
  let state: State<Api, S, W> | undefined;
  let undos: (() => unknown)[] = [];
  const defer: Defer = (undo) => undos.push(undo);
  const current = (): State<Api, S, W> => {
    if (!state) throw new Error('signedIn: read outside a test, or its setup failed');
    return state;
  };

  beforeEach(async () => {
    const api = await driver.activate();
    const service = await options.start();
    const s = { api, service } as State<Api, S, W>;
    defer(() => s.service.close());
    s.watched = driver.watch(api, defer);
    // After the test the address may stay: the next test's setup replaces or clears it.
    defer(() => driver.reset(api, true));
    const signsIn = options.signIn !== false;
    await driver.reset(api, signsIn);
    if (signsIn) await driver.signIn(api, service);
    state = s;
  });

  afterEach(async () => {
    state = undefined;
    const pending = undos.reverse();
    undos = [];
    const errors: unknown[] = [];
    for (const undo of pending) {
      try {
        await undo();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(errors, 'several steps could not be undone after the test');
  });

  const replaceService = async (start: () => Promise<S>): Promise<S> => {
    const s = current();
    await s.service.close();
    s.service = await start();
    return s.service;
  };
  return {
    get api() {
      return current().api;
    },
    get service() {
      return current().service;
    },
    get watched() {
      return current().watched;
    },
    replaceService,
    restart: async (start) => {
      const service = await replaceService(start);
      const { api } = current();
      await driver.reset(api, true);
      await driver.signIn(api, service);
      return service;
    },
  };
}
