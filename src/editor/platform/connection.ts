import * as vscode from 'vscode';
import { ApiClient } from '../../core/client/client';
import { DenError, MISSING_KEY } from '../../core/client/errors';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { KeyStore } from './key-store';
import type { DenSettings } from './settings';
import { RequestOrder } from './request-order';

/** What the user should see about the service connection. */
export type ConnectionState =
  | { kind: 'unconfigured'; problem?: string }
  | { kind: 'starting' }
  | { kind: 'signed-out' }
  | { kind: 'ready' }
  | { kind: 'connected' }
  | { kind: 'error'; error: DenError };

const USER_AGENT = 'den-vscode/0.1.0';

/**
 * Owns the API client for the current settings and key, and the connection state derived from
 * the outcome of requests. It makes no request by itself: activation stays offline.
 */
export class Connection implements vscode.Disposable {
  #current?: ApiClient;
  #stateValue: ConnectionState = { kind: 'unconfigured' };
  readonly #changed = new vscode.EventEmitter<ConnectionState>();
  readonly #order = new RequestOrder();
  readonly onDidChangeState = this.#changed.event;
  /** Settles once the stored key has been read (activation does not wait for it). */
  readonly ready: Promise<void>;

  #settingsValue: DenSettings;
  readonly #keys: KeyStore;
  readonly #logger: Logger;
  constructor(settingsValue: DenSettings, keys: KeyStore, logger: Logger, keysLoading: Promise<void>) {
    this.#settingsValue = settingsValue;
    this.#keys = keys;
    this.#logger = logger;
    this.#rebuild();
    this.ready = keysLoading.then(
      () => this.#rebuild(),
      () => this.#rebuild(),
    );
  }

  get settings(): DenSettings {
    return this.#settingsValue;
  }

  get state(): ConnectionState {
    return this.#stateValue;
  }

  /** The client, or undefined when no URL or no key is set. */
  get client(): ApiClient | undefined {
    return this.#current;
  }

  /** The client, or a `config` DenError that says what to set. */
  requireClient(): ApiClient {
    if (this.#current) return this.#current;
    if (!this.#settingsValue.baseUrl) {
      throw new DenError({
        code: 'config',
        message:
          this.#settingsValue.baseUrlProblem ??
          l10n.t('Set the service URL first (Den: Configure Service URL).'),
      });
    }
    throw new DenError({
      code: 'config',
      message: l10n.t('Sign in first (Den: Set API Key).'),
      details: MISSING_KEY,
    });
  }

  updateSettings(settings: DenSettings): void {
    this.#settingsValue = settings;
    this.#rebuild();
  }

  /** Called after the key changed. */
  keyChanged(): void {
    this.#rebuild();
  }

  /** Builds a client for a URL and key that are not (yet) the saved ones, e.g. to verify a key. */
  clientFor(key: string): ApiClient {
    const s = this.#settingsValue;
    if (!s.baseUrl) throw new DenError({ code: 'config', message: l10n.t('Set the service URL first.') });
    return this.#makeClient(s.baseUrl, () => key);
  }

  /**
   * A ticket for a request about to start, for `reportSuccess` / `reportFailure`: the outcome of a
   * request that started before another one that already settled is stale and changes nothing.
   */
  beginRequest(): number {
    return this.#order.begin();
  }

  reportSuccess(ticket?: number): void {
    if (!this.#order.accept(ticket)) return;
    if (this.#stateValue.kind !== 'connected') this.#setState({ kind: 'connected' });
  }

  reportFailure(err: unknown, ticket?: number): void {
    const error = err instanceof DenError ? err : new DenError({ code: 'network', message: String(err) });
    if (error.code === 'aborted') return;
    if (!this.#order.accept(ticket)) return;
    this.#setState({ kind: 'error', error });
  }

  #makeClient(baseUrl: string, apiKey: () => string | undefined): ApiClient {
    const s = this.#settingsValue;
    return new ApiClient({
      baseUrl,
      apiKey,
      timeoutMs: s.requestTimeoutMs,
      logger: this.#logger,
      userAgent: USER_AGENT,
      mediaUrlTemplate: s.mediaUrlTemplate,
      proxy: { proxyUrl: s.proxyUrl, strictSSL: s.strictSSL, noProxy: s.noProxy },
    });
  }

  #rebuild(): void {
    const s = this.#settingsValue;
    if (!s.baseUrl) {
      this.#current = undefined;
      this.#setState({ kind: 'unconfigured', problem: s.baseUrlProblem });
    } else if (!this.#keys.key) {
      this.#current = undefined;
      this.#setState(this.#keys.loaded ? { kind: 'signed-out' } : { kind: 'starting' });
    } else {
      this.#current = this.#makeClient(s.baseUrl, () => this.#keys.key);
      this.#setState({ kind: 'ready' });
    }
  }

  #setState(state: ConnectionState): void {
    this.#stateValue = state;
    void vscode.commands.executeCommand('setContext', 'den.configured', state.kind !== 'unconfigured');
    void vscode.commands.executeCommand(
      'setContext',
      'den.signedIn',
      state.kind !== 'unconfigured' && state.kind !== 'signed-out',
    );
    this.#changed.fire(state);
  }

  dispose(): void {
    this.#changed.dispose();
  }
}
