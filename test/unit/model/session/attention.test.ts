import assert from 'node:assert/strict';
import {
  UnseenTurns,
  attentionText,
  decideAttention,
  type AttentionSettings,
  type TurnFinishedNotify,
} from '../../../../src/model/session/attention';
import type { SessionActivityKind } from '../../../../src/model/session/session-activity';

const settings = (
  turnFinished: TurnFinishedNotify = 'whenUnfocused',
  more: Partial<AttentionSettings> = {},
) => ({
  turnFinished,
  needsInput: true,
  badge: true,
  ...more,
});
const LOOKING = { windowFocused: true, panelVisible: true };
const ELSEWHERE = { windowFocused: false, panelVisible: true };
const HIDDEN = { windowFocused: true, panelVisible: false };

describe('attention: notify or not', () => {
  // kind, setting, looking, notify, unseen
  const cases: [SessionActivityKind, AttentionSettings, typeof LOOKING, boolean, boolean][] = [
    ['completed', settings(), LOOKING, false, false],
    ['completed', settings(), ELSEWHERE, true, true],
    ['completed', settings(), HIDDEN, true, true],
    ['failed', settings(), LOOKING, false, false],
    ['failed', settings(), { windowFocused: false, panelVisible: false }, true, true],
    ['completed', settings('always'), LOOKING, true, false],
    ['completed', settings('never'), HIDDEN, false, true],
    ['completed', settings('whenUnfocused', { badge: false }), HIDDEN, true, false],
    ['needsInput', settings(), HIDDEN, true, false],
    ['needsInput', settings(), ELSEWHERE, true, false],
    ['needsInput', settings(), LOOKING, false, false],
    ['needsInput', settings('always', { needsInput: false }), HIDDEN, false, false],
    ['started', settings('always'), HIDDEN, false, false],
    ['stopped', settings('always'), HIDDEN, false, false],
  ];
  for (const [kind, s, looking, notify, unseen] of cases) {
    const where =
      looking === LOOKING
        ? 'looking'
        : looking === ELSEWHERE
          ? 'window unfocused'
          : looking === HIDDEN
            ? 'panel hidden'
            : 'away';
    it(`${kind}, ${s.turnFinished}${s.needsInput ? '' : ', no input notifications'}${s.badge ? '' : ', no badge'}, ${where}: ${notify ? 'notifies' : 'quiet'}${unseen ? ', unseen' : ''}`, () => {
      assert.deepEqual(decideAttention(kind, s, looking), { notify, unseen });
    });
  }

  it('words the notification by kind, with the error or the question', () => {
    const e = { sessionId: 's', agentMessageId: 'a', title: 'Fix the build\nsecond line' };
    assert.equal(attentionText({ ...e, kind: 'completed' }), 'Den: “Fix the build” finished');
    assert.equal(
      attentionText({ ...e, kind: 'failed', detail: 'boom' }),
      'Den: “Fix the build” failed: boom',
    );
    assert.equal(
      attentionText({ ...e, title: '', kind: 'needsInput', detail: 'Approve?' }),
      'Den: “Untitled session” needs your input: Approve?',
    );
  });
});

describe('attention: unseen turns', () => {
  it('counts turns once each, clears a session or all', () => {
    const u = new UnseenTurns();
    u.add('s1', 'a');
    u.add('s1', 'a');
    u.add('s1', 'b');
    u.add('s2', 'c');
    assert.equal(u.count, 3);
    assert.equal(u.clear('s1'), true);
    assert.equal(u.count, 1);
    assert.equal(u.clear('s1'), false);
    assert.deepEqual(u.sessions(), ['s2']);
    assert.equal(u.clear(), true);
    assert.equal(u.count, 0);
    assert.equal(u.clear(), false);
  });
});
