import * as vscode from 'vscode';

/** The SecretStorage key of the web task passcode (apart from the API key's). */
export const PASSCODE_SECRET_ID = 'den.webTaskPasscode';

/**
 * The web task passcode (`service_passcode`), kept only in SecretStorage and in memory: never in
 * settings, history, the webview or logs (the logger redacts `value`).
 */
export class PasscodeStore implements vscode.Disposable {
  #stored?: string;
  readonly #changed = new vscode.EventEmitter<void>();
  readonly #subscription: vscode.Disposable;
  readonly onDidChange = this.#changed.event;
  /** The first read of SecretStorage: on first use, not at activation. */
  #loading?: Promise<void>;

  readonly #secrets: vscode.SecretStorage;
  constructor(secrets: vscode.SecretStorage) {
    this.#secrets = secrets;
    this.#subscription = secrets.onDidChange(async (e) => {
      if (e.key === PASSCODE_SECRET_ID) await this.#load();
    });
  }

  /**
   * The passcode in memory (for redaction and "set / not set"); undefined until first read, which
   * is safe: Den quotes nothing of a passcode before `get()` has read it.
   */
  get value(): string | undefined {
    return this.#stored;
  }

  async get(): Promise<string | undefined> {
    await (this.#loading ??= this.#load());
    return this.#stored;
  }

  /** Stores the passcode; empty removes it. */
  async set(passcode: string): Promise<void> {
    if (passcode) await this.#secrets.store(PASSCODE_SECRET_ID, passcode);
    else await this.#secrets.delete(PASSCODE_SECRET_ID);
    this.#loading ??= Promise.resolve();
    this.#update(passcode || undefined);
  }

  async #load(): Promise<void> {
    let value: string | undefined;
    try {
      value = (await this.#secrets.get(PASSCODE_SECRET_ID)) || undefined;
    } catch {
      value = undefined;
    }
    this.#update(value);
  }

  #update(value: string | undefined): void {
    if (value === this.#stored) return;
    this.#stored = value;
    this.#changed.fire();
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changed.dispose();
  }
}
