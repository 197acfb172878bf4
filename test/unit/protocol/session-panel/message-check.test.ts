import assert from 'node:assert/strict';
import {
  checkWebviewMessage,
  isAllowedCommand,
  isOpenableLink,
  messageSession,
} from '../../../../src/protocol/session-panel/webview-messages';
import { escapeHtml, panelCsp, panelHtml } from '../../../../src/editor/session-panel/panel-html';

describe('Webview messages', () => {
  it('say which session they are about when the page says one (the preview shows one after another)', () => {
    assert.equal(messageSession({ type: 'stop', session: 's-1' }), 's-1');
    assert.equal(messageSession({ type: 'stop' }), undefined);
    assert.equal(messageSession({ type: 'stop', session: 7 }), undefined);
    assert.equal(messageSession(null), undefined);
  });

  const accepted: unknown[] = [
    { type: 'ready', lastSeq: null },
    { type: 'ready', lastSeq: 12 },
    { type: 'send', text: 'hi', mode: 'code', effort: 'think' },
    { type: 'send', text: 'go on', mode: 'auto', effort: 'fast', continueTurnId: 'agent-1' },
    { type: 'stop' },
    { type: 'pickAttachments' },
    { type: 'removeAttachment', id: 'a' },
    { type: 'dropUris', uris: ['file:///w/a.ts', 'vscode-remote://ssh-remote%2Bbox/w/b.ts'] },
    { type: 'dropUris', uris: [], otherFiles: 2 },
    { type: 'openLink', href: 'https://example.com' },
    { type: 'openFile', turnId: 't', path: 'src/a.ts' },
    { type: 'copy', text: 'x' },
    { type: 'showFullLog', turnId: 't', blockId: 'tool:run:1' },
    { type: 'retry' },
    { type: 'probeResult', id: 'p', digest: { lastSeq: 1, turns: [], renderedBlocks: 0, composerText: '' } },
    { type: 'composerChoice', mode: 'plan', effort: 'fast' },
    { type: 'runCommand', command: 'den.setApiKey' },
    { type: 'heldTurn', action: 'sendWhenReady' },
    { type: 'keepOpen' },
    { type: 'keepOpen', session: 's-1' },
  ];
  for (const m of accepted) {
    it(`accepts a well-formed ${(m as { type: string }).type} message`, () => {
      assert.deepEqual(checkWebviewMessage(m), m);
    });
  }

  const refused: [string, unknown][] = [
    ['nothing', undefined],
    ['a string', 'send'],
    ['an unknown type', { type: 'eval', code: '1' }],
    ['an unknown type named like a known one', { type: 'Send', text: 'x', mode: 'auto', effort: 'fast' }],
    ['a type inherited from Object', { type: 'toString' }],
    ['a type named __proto__', JSON.parse('{"type":"__proto__"}')],
    ['a message without a type', { text: 'x' }],
    ['a message whose type is not a string', { type: ['stop'] }],
    ['an array', [{ type: 'stop' }]],
    ['send with an unknown mode', { type: 'send', text: 'x', mode: 'root', effort: 'fast' }],
    ['send without text', { type: 'send', mode: 'auto', effort: 'fast' }],
    ['send with a huge text', { type: 'send', text: 'x'.repeat(1_000_001), mode: 'auto', effort: 'fast' }],
    ['ready with a negative seq', { type: 'ready', lastSeq: -1 }],
    ['openFile without a path', { type: 'openFile', turnId: 't' }],
    ['runCommand without a command', { type: 'runCommand' }],
    ['composerChoice with a bad effort', { type: 'composerChoice', mode: 'auto', effort: 'max' }],
    ['dropUris without uris', { type: 'dropUris' }],
    ['dropUris with a URI that is not a string', { type: 'dropUris', uris: [1] }],
    ['dropUris with more than 1,000 URIs', { type: 'dropUris', uris: Array(1_001).fill('file:///a') }],
    ['dropUris with a negative count', { type: 'dropUris', uris: [], otherFiles: -1 }],
    ['heldTurn with an unknown action', { type: 'heldTurn', action: 'sendTwice' }],
  ];
  for (const [what, m] of refused) {
    it(`refuses ${what}`, () => {
      assert.equal(checkWebviewMessage(m), undefined);
    });
  }

  const links: [string, boolean][] = [
    ['https://example.com/a?b=c', true],
    ['http://localhost:3000', true],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['command:den.signOut', false],
    ['vscode://settings', false],
    ['data:text/html,<script>', false],
    ['not a url', false],
  ];
  for (const [href, ok] of links) {
    it(`${ok ? 'opens' : 'does not open'} the link ${href}`, () => {
      assert.equal(isOpenableLink(href), ok);
    });
  }

  it('lets the webview run Den commands only', () => {
    assert.equal(isAllowedCommand('den.setApiKey'), true);
    assert.equal(isAllowedCommand('workbench.action.terminal.sendSequence'), false);
    assert.equal(isAllowedCommand('den'), false);
    assert.equal(isAllowedCommand('den.x; rm'), false);
  });
});

describe('Panel page', () => {
  const html = panelHtml({
    cspSource: 'https://x.vscode-cdn.net',
    scriptUri: 'https://x.vscode-cdn.net/dist/webview.js',
    styleUri: 'https://x.vscode-cdn.net/media/panel.css',
    title: '<img src=x onerror=alert(1)>',
    nonce: 'abc123',
  });

  it('allows scripts only with its nonce, and nothing remote or inline', () => {
    const csp = panelCsp('https://x.vscode-cdn.net', 'abc123');
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-abc123'; style-src https://x.vscode-cdn.net; img-src https://x.vscode-cdn.net data:; font-src https://x.vscode-cdn.net",
    );
    assert.ok(html.includes(`content="${csp}"`));
    assert.doesNotMatch(html, /unsafe-(inline|eval)/);
    assert.match(
      html,
      /<script nonce="abc123" src="https:\/\/x\.vscode-cdn\.net\/dist\/webview\.js"><\/script>/,
    );
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.match(html, /<div id="app"><\/div>/);
  });

  it('escapes the title', () => {
    assert.ok(html.includes(`<title>${escapeHtml('<img src=x onerror=alert(1)>')}</title>`));
    assert.doesNotMatch(html, /<img/);
  });

  it('uses a fresh nonce per page', () => {
    const opts = { cspSource: 'c', scriptUri: 's', styleUri: 't', title: 'x' };
    const nonce = (h: string): string | undefined => /nonce="([^"]+)"/.exec(h)?.[1];
    assert.notEqual(nonce(panelHtml(opts)), nonce(panelHtml(opts)));
    assert.ok((nonce(panelHtml(opts)) ?? '').length >= 16);
  });
});
