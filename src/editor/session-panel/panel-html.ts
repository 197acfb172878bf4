/**
 * The Session panel's page: an empty `#app` the webview bundle renders into, under a strict CSP
 * (scripts only with this page's nonce, styles, images and fonts only from the extension). No
 * `vscode` import: the caller passes the webview's URIs as strings.
 */
import { randomBytes } from 'node:crypto';

export interface PanelHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `asWebviewUri` of dist/webview.js. */
  scriptUri: string;
  /** `asWebviewUri` of media/panel.css. */
  styleUri: string;
  title: string;
  /** Fresh per page; generated when omitted. */
  nonce?: string;
}

/** A nonce for one page: 128 random bits. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64url');
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The Content-Security-Policy of the page. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function panelHtml(o: PanelHtmlOptions): string {
  const nonce = o.nonce ?? makeNonce();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${panelCsp(o.cspSource, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}
