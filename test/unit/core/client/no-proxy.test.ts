import assert from 'node:assert/strict';
import { matchesNoProxy, normalizeProxyUrl, proxyUrlFor } from '../../../../src/core/client/no-proxy';

describe('proxy selection', () => {
  const noProxyTable: [string, string, boolean][] = [
    ['https://api.example.com/x', '*', true],
    ['https://api.example.com/x', 'example.com', true],
    ['https://example.com/x', 'example.com', true],
    ['https://notexample.com/x', 'example.com', false],
    ['https://api.example.com/x', '.example.com', true],
    ['https://example.com/x', '.example.com', true],
    ['https://api.example.com/x', '*.example.com', true],
    ['https://api.example.com/x', 'other.org, example.com', true],
    ['https://api.example.com/x', 'other.org example.com', true],
    ['https://api.example.com/x', 'other.org,,', false],
    ['https://API.Example.COM/x', 'example.com', true],
    ['https://api.example.com/x', 'example.com:443', true],
    ['https://api.example.com/x', 'example.com:8443', false],
    ['http://api.example.com:8080/x', 'api.example.com:8080', true],
    ['http://api.example.com/x', 'api.example.com:80', true],
    ['http://10.1.2.3/x', '10.0.0.0/8', true],
    ['http://11.1.2.3/x', '10.0.0.0/8', false],
    ['http://192.168.1.5/x', '192.168.1.5', true],
    ['http://[::1]:3000/x', '::1', true],
    ['http://[::1]:3000/x', '[::1]:3000', true],
    ['http://[::1]:3000/x', '[::1]:4000', false],
    ['wss://api.example.com/ws', 'example.com:443', true],
    ['https://api.example.com/x', '', false],
  ];
  for (const [url, list, expected] of noProxyTable) {
    it(`${expected ? 'exempts' : 'does not exempt'} ${url} given NO_PROXY="${list}"`, () => {
      assert.equal(matchesNoProxy(new URL(url), list), expected);
    });
  }

  const selectionTable: [string, string, Parameters<typeof proxyUrlFor>[1], string | undefined][] = [
    [
      'uses an explicit proxy before the environment',
      'https://api.example.com',
      { proxyUrl: 'http://explicit:1', env: { HTTPS_PROXY: 'http://env:2' } },
      'http://explicit:1',
    ],
    [
      'adds a scheme to a bare explicit proxy',
      'https://api.example.com',
      { proxyUrl: 'proxy.corp:3128', env: {} },
      'http://proxy.corp:3128',
    ],
    [
      'reads HTTPS_PROXY for https targets',
      'https://api.example.com',
      { env: { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://q:2' } },
      'http://p:1',
    ],
    [
      'prefers lower-case https_proxy',
      'https://api.example.com',
      { env: { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' } },
      'http://lower:1',
    ],
    [
      'falls back to HTTP_PROXY for https targets',
      'https://api.example.com',
      { env: { http_proxy: 'http://q:2' } },
      'http://q:2',
    ],
    [
      'reads HTTP_PROXY for http targets, never HTTPS_PROXY',
      'http://api.example.com',
      { env: { HTTPS_PROXY: 'http://p:1' } },
      undefined,
    ],
    [
      'reads HTTPS_PROXY for wss targets',
      'wss://api.example.com/ws',
      { env: { HTTPS_PROXY: 'http://p:1' } },
      'http://p:1',
    ],
    [
      'honours NO_PROXY from the environment',
      'https://api.example.com',
      { env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.example.com' } },
      undefined,
    ],
    [
      'honours no_proxy in lower case',
      'https://api.example.com',
      { env: { HTTPS_PROXY: 'http://p:1', no_proxy: 'example.com' } },
      undefined,
    ],
    [
      'applies NO_PROXY to an explicit proxy too',
      'https://api.example.com',
      { proxyUrl: 'http://e:1', env: { NO_PROXY: '*' } },
      undefined,
    ],
    [
      'exempts a host of the configured bypass list (http.noProxy)',
      'https://api.example.com',
      { proxyUrl: 'http://e:1', noProxy: ['other.org', 'example.com'], env: {} },
      undefined,
    ],
    [
      'adds the configured bypass list to NO_PROXY: a host in NO_PROXY alone is exempt',
      'https://api.example.com',
      { proxyUrl: 'http://e:1', noProxy: ['other.org'], env: { NO_PROXY: 'api.example.com' } },
      undefined,
    ],
    [
      'sends a host in neither bypass list through the proxy',
      'https://api.example.com',
      { proxyUrl: 'http://e:1', noProxy: ['other.org'], env: { NO_PROXY: 'third.net' } },
      'http://e:1',
    ],
    [
      'never sends loopback through an environment proxy',
      'http://127.0.0.1:8080',
      { env: { HTTP_PROXY: 'http://p:1' } },
      undefined,
    ],
    [
      'never sends localhost through an environment proxy',
      'http://localhost:8080',
      { env: { HTTP_PROXY: 'http://p:1' } },
      undefined,
    ],
    [
      'sends loopback through an explicit proxy',
      'http://127.0.0.1:8080',
      { proxyUrl: 'http://e:1', env: {} },
      'http://e:1',
    ],
    ['connects directly when nothing is configured', 'https://api.example.com', { env: {} }, undefined],
  ];
  for (const [title, url, cfg, expected] of selectionTable) {
    it(title, () => {
      assert.equal(proxyUrlFor(url, cfg), expected);
    });
  }

  it('keeps an explicit scheme as given', () => {
    assert.equal(normalizeProxyUrl('https://p:1'), 'https://p:1');
    assert.equal(normalizeProxyUrl('p:1'), 'http://p:1');
  });
});
