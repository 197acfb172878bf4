/**
 * `vscode.l10n.t` for the webviews, which cannot call `vscode`: the host sends `vscode.l10n.bundle`
 * in each `init` and the webview sets it here before it renders. The object is named `l10n` with a
 * method `t` on purpose: `@vscode/l10n-dev` extracts the messages of `l10n.t('…')` calls into
 * `l10n/bundle.l10n.json`. No imports: the webview bundles and the host share it.
 */

let bundle: Record<string, string> | undefined;

/** The translations to use from now on (keyed by the English message); undefined: English. */
export function setL10nBundle(next: Record<string, string> | undefined): void {
  bundle = next;
}

export const l10n = {
  /**
   * The message translated by the current bundle (else as given), with `{0}`, `{1}`… replaced by
   * the args, as `vscode.l10n.t(message, ...args)` does; a placeholder without an arg stays as is.
   */
  t(message: string, ...args: (string | number | boolean)[]): string {
    const found: unknown = bundle?.[message];
    const text = typeof found === 'string' ? found : message;
    if (args.length === 0) return text;
    return text.replace(/\{(\d+)\}/g, (m, i: string) => {
      const a = args[Number(i)];
      return a === undefined ? m : String(a);
    });
  },
};
