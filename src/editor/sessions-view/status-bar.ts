import * as vscode from 'vscode';
import type { ConnectionState } from '../platform/connection';
import { l10n } from '../../core/shared/l10n';
import { presentError } from '../../model/shared/error-text';
import { runningWords } from '../../model/session/running-words';

/**
 * The status bar item: connection state (signed out / connected / error with its reason) and the
 * numbers of running and of queued turns, apart. Clicking it runs what helps in that state.
 */
export class StatusBar implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem('den.status', vscode.StatusBarAlignment.Left, 50);
  #state: ConnectionState = { kind: 'unconfigured' };
  #running = 0;
  #queued = 0;

  constructor() {
    this.#item.name = 'Den';
    this.#render();
    this.#item.show();
  }

  setState(state: ConnectionState): void {
    this.#state = state;
    this.#render();
  }

  /** Turns running, and turns queued behind them (not running yet). */
  setRunningTurns(running: number, queued = 0): void {
    this.#running = running;
    this.#queued = queued;
    this.#render();
  }

  /** What the item shows now (for tests). */
  get text(): string {
    return this.#item.text;
  }

  /** Its tooltip now (for tests). */
  get tooltip(): string {
    const t = this.#item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  #render(): void {
    const it = this.#item;
    it.backgroundColor = undefined;
    const s = this.#state;
    switch (s.kind) {
      case 'unconfigured':
        it.text = '$(circle-slash) Den';
        it.tooltip = s.problem
          ? l10n.t('Den: {0}', s.problem)
          : l10n.t('Den: no service URL set. Click to configure.');
        it.command = 'den.configure';
        break;
      case 'starting':
        it.text = '$(sync~spin) Den';
        it.tooltip = l10n.t('Den: reading your API key…');
        it.command = 'den.showLog';
        break;
      case 'signed-out':
        it.text = l10n.t('$(account) Den: Sign In');
        it.tooltip = l10n.t('Den: signed out. Click to set your API key.');
        it.command = 'den.setApiKey';
        break;
      case 'ready':
      case 'connected': {
        const turns = runningWords(this.#running, this.#queued);
        it.text = turns?.text ?? '$(check) Den';
        it.tooltip =
          turns?.tooltip ?? (s.kind === 'connected' ? l10n.t('Den: connected.') : l10n.t('Den: signed in.'));
        it.command = turns ? 'den.showRunningTurns' : 'den.refreshSessions';
        break;
      }
      case 'error': {
        // The failed request is not known here; "could not reach" would be wrong for a 5xx.
        const p = presentError(s.error);
        it.text =
          s.error.code === 'unauthorized'
            ? l10n.t('$(warning) Den: Key Rejected')
            : l10n.t('$(warning) Den: Error');
        it.tooltip = p.message;
        it.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        it.command = s.error.code === 'unauthorized' ? 'den.setApiKey' : 'den.showLog';
        break;
      }
    }
  }

  dispose(): void {
    this.#item.dispose();
  }
}
