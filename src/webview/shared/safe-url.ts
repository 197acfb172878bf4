/**
 * Link safety for agent output: only absolute http(s) and mailto URLs survive, normalized by the URL
 * parser. Everything else (javascript:, data:, vbscript:, file:, relative paths, obfuscated schemes)
 * is refused and the link is shown as plain text.
 */

// Controls, whitespace, zero-width and bidi formatting characters: never part of a link we keep.
const INVISIBLE =
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff0-\ufff8]/;

/** Bidi embedding, override and isolate characters (removed from link text). */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes numeric character references and a few named ones (as CommonMark does in text and URLs). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g, (m, dec, hex, name) => {
    if (name !== undefined) return Object.prototype.hasOwnProperty.call(NAMED, name) ? NAMED[name] : m;
    const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex, 16);
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(cp);
  });
}

/**
 * The normalized href for a link destination (already unescaped and entity-decoded), or undefined
 * when it must not be a link: not http(s)/mailto, relative, with credentials, or with invisible
 * characters that could disguise it.
 */
export function safeHref(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > 4096 || INVISIBLE.test(raw)) return undefined;
  if (!/^(?:https?:\/\/|mailto:)/i.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol === 'mailto:') return url.pathname.length > 0 ? url.href : undefined;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // `https://trusted.example@evil.example` reads as the first host but goes to the second.
  if (!url.hostname || url.username || url.password) return undefined;
  return url.href;
}
