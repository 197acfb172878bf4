import * as vscode from 'vscode';

const SECRET_ID = 'den.apiKey';

/** Where the key in use came from. */
export type KeySource = 'secret-storage' | 'window' | 'environment';

/** Thrown when SecretStorage cannot keep the key (keyring-less Linux, some web hosts). */
export class SecretStorageUnavailable extends Error {}

/**
 * Holds the API key. Order of precedence: a key kept for this window only, then SecretStorage,
 * then the `DEN_API_KEY` environment variable (headless use). The key is only ever held in memory
 * and in SecretStorage: never in settings, files or logs.
 */
export class KeyStore implements vscode.Disposable {
  #windowKey?: string;
  #storedKey?: string;
  #loadedValue = false;
  readonly #changed = new vscode.EventEmitter<void>();
  readonly #subscription: vscode.Disposable;
  readonly onDidChange = this.#changed.event;

  private readonly secrets: vscode.SecretStorage;
  readonly #envKey: string | undefined;
  constructor(secrets: vscode.SecretStorage, envKey: string | undefined) {
    this.secrets = secrets;
    this.#envKey = envKey;
    // Another window signed in or out: follow it. Our own writes echo here too; they change nothing.
    this.#subscription = secrets.onDidChange(async (e) => {
      if (e.key === SECRET_ID) await this.#changing(() => this.load());
    });
  }

  /** Whether SecretStorage has been read (until then only a window or environment key is known). */
  get loaded(): boolean {
    return this.#loadedValue;
  }

  /** Reads SecretStorage; no network. A failing store is treated as empty. */
  async load(): Promise<void> {
    try {
      this.#storedKey = (await this.secrets.get(SECRET_ID)) || undefined;
    } catch {
      this.#storedKey = undefined;
    }
    this.#loadedValue = true;
  }

  get key(): string | undefined {
    return this.#windowKey ?? this.#storedKey ?? (this.#envKey?.trim() || undefined);
  }

  get source(): KeySource | undefined {
    if (this.#windowKey) return 'window';
    if (this.#storedKey) return 'secret-storage';
    return this.#envKey?.trim() ? 'environment' : undefined;
  }

  /** Stores the key in SecretStorage; throws SecretStorageUnavailable when that fails. */
  async store(key: string): Promise<void> {
    try {
      await this.secrets.store(SECRET_ID, key);
    } catch (err) {
      throw new SecretStorageUnavailable(err instanceof Error ? err.message : String(err));
    }
    await this.#changing(() => {
      this.#storedKey = key;
      this.#windowKey = undefined;
    });
  }

  /** Keeps the key in memory for this window only. */
  useForWindow(key: string): void {
    void this.#changing(() => {
      this.#windowKey = key;
    });
  }

  /** Forgets the stored and window keys. An environment key stays (it is not ours to remove). */
  async clear(): Promise<void> {
    await this.#changing(async () => {
      this.#windowKey = undefined;
      this.#storedKey = undefined;
      try {
        await this.secrets.delete(SECRET_ID);
      } catch {
        // Nothing stored, or storage unavailable: either way no key remains with us.
      }
    });
  }

  /** Runs a change and tells listeners only when the key in use actually changed. */
  async #changing(change: () => void | Promise<void>): Promise<void> {
    const before = this.key;
    await change();
    if (this.key !== before) this.#changed.fire();
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changed.dispose();
  }
}
