import { EFFORTS, MODES, type Effort, type Mode } from '../../core/client/types';
import { isGlob } from '../../core/paths/runs-code';
import { l10n } from '../../core/shared/l10n';
import {
  TURN_FINISHED_NOTIFY,
  type AttentionSettings,
  type TurnFinishedNotify,
} from '../../model/session/attention';

/** Den's settings, read and validated in one place (see `readSettings`), then passed down. */
export interface DenSettings {
  /** Normalized base URL without a trailing slash; undefined when not set or invalid. */
  baseUrl?: string;
  /** Why `den.baseUrl` was rejected, for a message a person can act on. */
  baseUrlProblem?: string;
  defaultMode: Mode;
  defaultEffort: Effort;
  requestTimeoutMs: number;
  pageSize: number;
  mediaUrlTemplate: string;
  /** `den.attachments.maxFileSizeMB` in bytes: larger files are not attached. */
  maxAttachmentBytes: number;
  /** VS Code's `http.proxy`, when set. */
  proxyUrl?: string;
  /** VS Code's `http.proxyStrictSSL`. */
  strictSSL: boolean;
  /** VS Code's `http.noProxy`: hosts reached directly (besides the environment's `NO_PROXY`). */
  noProxy: string[];
  /** `den.notifications.*` and `den.badge.unseenTurns`. */
  attention: AttentionSettings;
  /** `den.apply.filesThatRunCode`: globs of more workspace files that can run code (invalid entries dropped). */
  filesThatRunCode: string[];
}

/** Reads one setting by its full name (e.g. `den.baseUrl`). */
export type SettingReader = (name: string) => unknown;

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

function num(v: unknown, fallback: number, lo: number, hi: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? clamp(v, lo, hi) : fallback;
}

/** Checks a service URL; returns the normalized URL or the problem with it. */
export function validateBaseUrl(raw: string): { url?: string; problem?: string } {
  const text = raw.trim();
  if (!text) return { problem: l10n.t('No service URL is set.') };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { problem: l10n.t('"{0}" is not a URL. Use the form https://agents.example.com.', text) };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { problem: l10n.t('"{0}" must start with http:// or https://.', text) };
  }
  if (u.username || u.password)
    return { problem: l10n.t('Put no credentials in the URL; use Den: Set API Key.') };
  if (u.search || u.hash) return { problem: l10n.t('The service URL must not have a query or fragment.') };
  return { url: u.toString().replace(/\/+$/, '') };
}

/** The non-empty strings of a list setting (anything else is ignored). */
function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

/** Builds validated settings from raw values; invalid values fall back to defaults. */
export function parseSettings(get: SettingReader): DenSettings {
  const rawUrl = typeof get('den.baseUrl') === 'string' ? (get('den.baseUrl') as string) : '';
  const { url, problem } = validateBaseUrl(rawUrl);
  const mode = get('den.defaultMode');
  const effort = get('den.defaultEffort');
  const template = get('den.mediaUrlTemplate');
  const proxy = get('http.proxy');
  const finished = get('den.notifications.turnFinished');
  return {
    baseUrl: url,
    baseUrlProblem: rawUrl.trim() ? problem : undefined,
    defaultMode: MODES.includes(mode as Mode) ? (mode as Mode) : 'auto',
    defaultEffort: EFFORTS.includes(effort as Effort) ? (effort as Effort) : 'fast',
    requestTimeoutMs: num(get('den.requestTimeoutSeconds'), 30, 5, 600) * 1000,
    pageSize: Math.round(num(get('den.sessionsPageSize'), 50, 10, 100)),
    mediaUrlTemplate:
      typeof template === 'string' && template.includes('{key}') ? template : '{base_url}/media/{key}',
    maxAttachmentBytes: Math.round(num(get('den.attachments.maxFileSizeMB'), 100, 1, 10_240) * 1024 * 1024),
    proxyUrl: typeof proxy === 'string' && proxy.trim() ? proxy.trim() : undefined,
    strictSSL: get('http.proxyStrictSSL') !== false,
    noProxy: stringList(get('http.noProxy')),
    attention: {
      turnFinished: TURN_FINISHED_NOTIFY.includes(finished as TurnFinishedNotify)
        ? (finished as TurnFinishedNotify)
        : 'whenUnfocused',
      needsInput: get('den.notifications.needsInput') !== false,
      badge: get('den.badge.unseenTurns') !== false,
    },
    filesThatRunCode: globsOf(get('den.apply.filesThatRunCode')),
  };
}

/** The setting's globs: strings that `isGlob` takes, at most 200. */
function globsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter(isGlob).slice(0, 200) : [];
}
