/**
 * `vscode.l10n.t` for every part of Den: the core (which cannot import `vscode`), the glue and the
 * webviews. The host sets `vscode.l10n.bundle` here at activation and sends it in each webview
 * `init`, where the page sets it before it renders. The object is named `l10n` with a method `t` on
 * purpose: `@vscode/l10n-dev` extracts the messages of `l10n.t('…')` calls into
 * `l10n/bundle.l10n.json` (`npm run l10n`). No imports: the webview bundles and the host share it.
 *
 * The bundle and the locale live in one slot on `globalThis`, so that every bundle's copy of this
 * module in one JavaScript realm (dist/extension.js and a lazily loaded one) reads the same values.
 */

interface L10nState {
  bundle?: Record<string, string>;
  locale?: string;
}

const SLOT = Symbol.for('den.l10n');
const holder = globalThis as { [SLOT]?: L10nState };
const state: L10nState = (holder[SLOT] ??= {});

/**
 * The translations to use from now on (keyed by the English message; undefined: English) and the
 * locale numbers are written in (`vscode.env.language`; undefined: the runtime's default).
 */
export function setL10nBundle(next: Record<string, string> | undefined, locale?: string): void {
  state.bundle = next;
  state.locale = locale;
}

export const l10n = {
  /**
   * The message translated by the current bundle (else as given), with `{0}`, `{1}`… replaced by
   * the args, as `vscode.l10n.t(message, ...args)` does; a placeholder without an arg stays as is.
   */
  t(message: string, ...args: (string | number | boolean)[]): string {
    const found: unknown = state.bundle?.[message];
    const text = typeof found === 'string' ? found : message;
    if (args.length === 0) return text;
    return text.replace(/\{(\d+)\}/g, (m, i: string) => {
      const a = args[Number(i)];
      return a === undefined ? m : String(a);
    });
  },
};

/** A whole number in the person's locale (`1,234` in English); the runtime's default before one is set. */
export function formatCount(n: number): string {
  try {
    return n.toLocaleString(state.locale);
  } catch {
    return n.toLocaleString();
  }
}
