import { l10n } from '../shared/l10n';
import type { Logger } from '../shared/log';
import { DenError, isDenError } from './errors';
import { recoverFromEvents } from './file-recovery';
import { DEFAULT_MEDIA_URL_TEMPLATE, expandMediaUrl, sameOrigin } from './media-url';
import type { HttpTransport } from './transport';
import type { AgentEvent, FileInfo } from './types';

/** Where a downloaded file's bytes came from (the fetch chain of service-behaviour.md). */
export type DownloadSource = 'url' | 'template' | 'events';

export interface DownloadedFile {
  content: Buffer;
  source: DownloadSource;
  contentType?: string;
}

export interface DownloadContext {
  /** The session's events (all agent messages, in order), for recovering written files. */
  sessionEvents?: readonly AgentEvent[];
  /** Largest download accepted. Default 64 MB. */
  maxBytes?: number;
}

export interface DownloadSettings {
  /** Default `{base_url}/media/{key}`; empty = skip this source. */
  mediaUrlTemplate?: string;
  idleTimeoutMs: number;
  logger: Logger;
}

/** Fetch failures that mean "this source does not offer the file" rather than a problem to report. */
const NOT_OFFERED = new Set([404, 405, 410, 501]);

/**
 * A generated file's bytes from the first source that has them: the key as an absolute URL; the
 * media URL template; a file-writing tool's parameters in `ctx.sessionEvents`. When none does, a
 * DenError `unsupported` — or the error that stopped a source, when it is more than "not offered"
 * (a rejected key, a network failure). The API key only goes to the service's own origin.
 */
export async function downloadFile(
  transport: HttpTransport,
  settings: DownloadSettings,
  file: FileInfo,
  ctx: DownloadContext = {},
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  const failures: DenError[] = [];
  const template = settings.mediaUrlTemplate ?? DEFAULT_MEDIA_URL_TEMPLATE;
  const target: [DownloadSource, string] | undefined = /^https?:\/\//i.test(file.key)
    ? ['url', file.key]
    : template.trim() !== ''
      ? ['template', expandMediaUrl(template, transport.baseUrl, file)]
      : undefined;
  if (target) {
    const [source, url] = target;
    try {
      const res = await transport.bytes({
        method: 'GET',
        url,
        auth: sameOrigin(url, transport.baseUrl) ? 'bearer' : 'none',
        accept: '*/*',
        idempotent: true,
        operation: l10n.t('download {0}', file.name),
        timeoutMs: settings.idleTimeoutMs,
        idle: true,
        maxBodyBytes: ctx.maxBytes,
        signal,
      });
      const type = res.headers['content-type'];
      const contentType = Array.isArray(type) ? type[0] : type;
      return { content: res.body, source, ...(contentType ? { contentType } : {}) };
    } catch (e) {
      if (!isDenError(e) || e.code === 'aborted' || e.code === 'config') throw e;
      settings.logger.debug(`${file.name}: the ${source} source failed: ${e.message}`);
      failures.push(e);
    }
  }
  const recovered = recoverFromEvents(file, ctx.sessionEvents ?? []);
  if (recovered) return { content: Buffer.from(recovered.content, 'utf8'), source: 'events' };
  const blocking = failures.find((f) => f.status === undefined || !NOT_OFFERED.has(f.status));
  if (blocking) throw blocking;
  throw new DenError({
    code: 'unsupported',
    message: l10n.t(
      'This service does not expose the content of {0}: it cannot be downloaded and no tool wrote it in this session',
      file.name,
    ),
    details: { key: file.key },
  });
}
