import * as vscode from 'vscode';

/** The SecretStorage key of the web task passcode (apart from the API key's). */
export const PASSCODE_SECRET_ID = 'den.webTaskPasscode';

/**
 * The web task passcode (`service_passcode`), kept only in SecretStorage and in memory: never in
 * settings, history, the webview or logs (the logger redacts `value`).
 */
export class PasscodeStore implements vscode.Disposable {
  private stored?: string;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.changed.event;
  /** Resolves once SecretStorage has been read. */
  readonly ready: Promise<void>;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange(async (e) => {
      if (e.key === PASSCODE_SECRET_ID) await this.load();
    });
    this.ready = this.load();
  }

  /** The passcode in memory (for redaction; read `get()` to wait for SecretStorage). */
  get value(): string | undefined {
    return this.stored;
  }

  async get(): Promise<string | undefined> {
    await this.ready;
    return this.stored;
  }

  /** Stores the passcode; empty removes it. */
  async set(passcode: string): Promise<void> {
    if (passcode) await this.secrets.store(PASSCODE_SECRET_ID, passcode);
    else await this.secrets.delete(PASSCODE_SECRET_ID);
    this.update(passcode || undefined);
  }

  private async load(): Promise<void> {
    let value: string | undefined;
    try {
      value = (await this.secrets.get(PASSCODE_SECRET_ID)) || undefined;
    } catch {
      value = undefined;
    }
    this.update(value);
  }

  private update(value: string | undefined): void {
    if (value === this.stored) return;
    this.stored = value;
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
