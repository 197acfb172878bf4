import assert from 'node:assert/strict';
import { parseSettings, validateBaseUrl } from '../../../../src/editor/platform/settings';

const from =
  (values: Record<string, unknown>) =>
  (name: string): unknown =>
    values[name];

describe('settings', () => {
  const urls: [string, string | undefined, RegExp | undefined][] = [
    ['https://agents.example.com', 'https://agents.example.com', undefined],
    ['https://agents.example.com/', 'https://agents.example.com', undefined],
    ['  http://127.0.0.1:7357  ', 'http://127.0.0.1:7357', undefined],
    ['https://example.com/api/v1/', 'https://example.com/api/v1', undefined],
    ['', undefined, /No service URL/],
    ['agents.example.com', undefined, /not a URL/],
    ['ftp://example.com', undefined, /http:\/\/ or https:\/\//],
    ['https://user:pw@example.com', undefined, /no credentials/],
    ['https://example.com/?token=abc', undefined, /query/],
  ];
  for (const [raw, url, problem] of urls) {
    it(`reads the service URL ${JSON.stringify(raw)} as ${url ?? 'invalid'}`, () => {
      const r = validateBaseUrl(raw);
      assert.equal(r.url, url);
      if (problem) assert.match(r.problem ?? '', problem);
      else assert.equal(r.problem, undefined);
    });
  }

  it('falls back to defaults for missing or invalid values', () => {
    const s = parseSettings(
      from({
        'den.defaultMode': 'warp',
        'den.defaultEffort': 7,
        'den.requestTimeoutSeconds': 'x',
        'den.mediaUrlTemplate': 'no key',
        'den.attachments.maxFileSizeMB': 'big',
      }),
    );
    assert.equal(s.baseUrl, undefined);
    assert.equal(s.baseUrlProblem, undefined, 'an unset URL is not a problem to report');
    assert.equal(s.defaultMode, 'auto');
    assert.equal(s.defaultEffort, 'fast');
    assert.equal(s.requestTimeoutMs, 30_000);
    assert.equal(s.pageSize, 50);
    assert.equal(s.mediaUrlTemplate, '{base_url}/media/{key}');
    assert.equal(s.maxAttachmentBytes, 100 * 1024 * 1024);
    assert.equal(s.strictSSL, true);
  });

  const attention: [string, Record<string, unknown>, object][] = [
    [
      'defaults to notify when not looking, input requests and the badge on',
      {},
      { turnFinished: 'whenUnfocused', needsInput: true, badge: true },
    ],
    [
      'reads always, and false for input requests and the badge',
      {
        'den.notifications.turnFinished': 'always',
        'den.notifications.needsInput': false,
        'den.badge.unseenTurns': false,
      },
      { turnFinished: 'always', needsInput: false, badge: false },
    ],
    [
      'reads never',
      { 'den.notifications.turnFinished': 'never' },
      { turnFinished: 'never', needsInput: true, badge: true },
    ],
    [
      'falls back on an unknown choice and non-booleans',
      {
        'den.notifications.turnFinished': 'sometimes',
        'den.notifications.needsInput': 'no',
        'den.badge.unseenTurns': 0,
      },
      { turnFinished: 'whenUnfocused', needsInput: true, badge: true },
    ],
  ];
  for (const [title, values, expected] of attention) {
    it(`attention settings: ${title}`, () => {
      assert.deepEqual(parseSettings(from(values)).attention, expected);
    });
  }

  it('clamps numbers and passes the proxy settings through', () => {
    const s = parseSettings(
      from({
        'den.baseUrl': 'https://a.example',
        'den.defaultMode': 'code',
        'den.defaultEffort': 'think',
        'den.requestTimeoutSeconds': 1,
        'den.sessionsPageSize': 1000,
        'http.proxy': ' http://proxy.local:3128 ',
        'http.proxyStrictSSL': false,
        'http.noProxy': [' internal.example ', '', 7, '10.0.0.0/8'],
      }),
    );
    assert.equal(s.baseUrl, 'https://a.example');
    assert.equal(s.defaultMode, 'code');
    assert.equal(s.defaultEffort, 'think');
    assert.equal(s.requestTimeoutMs, 5_000);
    assert.equal(s.pageSize, 100);
    assert.equal(s.proxyUrl, 'http://proxy.local:3128');
    assert.equal(s.strictSSL, false);
    assert.deepEqual(s.noProxy, ['internal.example', '10.0.0.0/8']);
  });

  it('reads the attachment size limit in MB, within 1 MB and 10 GB', () => {
    const bytes = (mb: unknown): number =>
      parseSettings(from({ 'den.attachments.maxFileSizeMB': mb })).maxAttachmentBytes;
    assert.equal(bytes(2.5), 2.5 * 1024 * 1024);
    assert.equal(bytes(0), 1024 * 1024);
    assert.equal(bytes(1e9), 10_240 * 1024 * 1024);
  });

  it('reports why a set but invalid URL was rejected', () => {
    assert.match(parseSettings(from({ 'den.baseUrl': 'nope' })).baseUrlProblem ?? '', /not a URL/);
  });
});
