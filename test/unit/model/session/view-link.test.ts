import assert from 'node:assert/strict';
import { DeltaBatcher } from '../../../../src/model/session/delta-batcher';
import { ViewLink, type RevealMatch } from '../../../../src/model/session/view-link';
import type { HostMessage } from '../../../../src/protocol/session-panel/messages';
import { liveTranscript } from '../../core/transcript/helpers';
import { FakeClock } from '../shared/fake-clock';

function rig() {
  const clock = new FakeClock();
  const t = liveTranscript();
  const sent: HostMessage[] = [];
  const batcher = new DeltaBatcher({
    transcript: () => t,
    init: () => ({
      session: { sessionId: t.sessionId, title: 'T', service: 'example.test' },
      turns: [],
      composer: { mode: 'code', effort: 'fast', attachments: [], running: false, queued: 0, sending: false },
      connection: { state: 'live' },
      notice: null,
      l10n: null,
    }),
    post: (m) => link.post(m),
    clock,
  });
  const link = new ViewLink(batcher, clock);
  return { link, clock, sent, attach: () => link.attach((m) => sent.push(m)) };
}

const reveal = (start: number): RevealMatch => ({
  type: 'revealMatch',
  query: 'migration',
  options: { matchCase: false, wholeWord: false, regex: false },
  address: { turnId: 't1', blockId: 'answer:main', kind: 'answer', index: 0 },
  start,
});

const types = (ms: HostMessage[]) => ms.map((m) => m.type);

describe('model/session/view-link: revealMatch', () => {
  it('waits for a webview that is loading, then follows its init (the latest asked only)', () => {
    const r = rig();
    r.attach();
    r.link.revealMatch(reveal(1));
    r.link.revealMatch(reveal(7));
    assert.deepEqual(types(r.sent), [], 'nothing before the page says ready');
    r.link.ready(null);
    assert.deepEqual(types(r.sent), ['init', 'revealMatch']);
    const m = r.sent[1];
    assert.ok(m.type === 'revealMatch' && m.start === 7);
  });

  it('goes at once to a webview that is shown and ready, and waits again while it is hidden', () => {
    const r = rig();
    r.attach();
    r.link.ready(null);
    r.link.revealMatch(reveal(3));
    assert.deepEqual(types(r.sent), ['init', 'revealMatch']);
    r.link.setVisible(false);
    r.link.revealMatch(reveal(4));
    assert.equal(r.sent.length, 2);
    // Shown again: the page reloaded and says ready.
    r.link.setVisible(true);
    r.link.ready(null);
    assert.deepEqual(types(r.sent), ['init', 'revealMatch', 'init', 'revealMatch']);
  });
});
