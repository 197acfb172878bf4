import assert from 'node:assert/strict';
import { DenError, MISSING_KEY } from '../../../../src/core/client/errors';
import { setL10nBundle } from '../../../../src/core/shared/l10n';
import { planApply } from '../../../../src/model/apply/apply-plan';
import { summaryText } from '../../../../src/model/apply/apply-summary';
import { attentionText } from '../../../../src/model/session/attention';
import { presentError } from '../../../../src/model/shared/error-text';
import { GROUP_LABELS } from '../../../../src/model/sessions-list/history-groups';
import { listProblemMessage } from '../../../../src/model/sessions-list/welcome-state';
import { parseSessionLink } from '../../../../src/model/session/session-link';
import { validateBaseUrl } from '../../../../src/editor/platform/settings';
import { agentFile, basesOf, fakeFolder } from '../apply/apply-rig';

/** A pseudo translation: each message in ⟦…⟧, its placeholders kept. */
const PSEUDO = (messages: string[]): Record<string, string> =>
  Object.fromEntries(messages.map((m) => [m, `⟦${m}⟧`]));

describe('l10n: the session layer says its texts through the bundle', () => {
  afterEach(() => setL10nBundle(undefined));

  it('error presentation: the lead, the summary, the retry hint and the button titles', () => {
    setL10nBundle(
      PSEUDO([
        'Den could not {0}',
        'load sessions',
        '{0}: the service is rate limiting requests (429).',
        'Retry in {0} s.',
        '{0} {1}',
        '{0}: the service rejected the API key. Set a new key.',
        'Set API Key',
      ]),
      'de',
    );
    const limited = presentError(
      new DenError({ code: 'rate_limited', message: 'slow down', retryAfter: 4.2 }),
      'load sessions',
    );
    assert.equal(
      limited.summary,
      '⟦⟦Den could not load sessions⟧: the service is rate limiting requests (429).⟧',
    );
    assert.equal(limited.retryHint, '⟦Retry in 5 s.⟧');
    assert.equal(limited.message, `⟦${limited.summary} ${limited.retryHint}⟧`);
    const rejected = presentError(new DenError({ code: 'unauthorized', message: 'no', status: 401 }));
    assert.equal(
      rejected.summary,
      "⟦Den's last request failed: the service rejected the API key. Set a new key.⟧",
    );
    assert.deepEqual(rejected.actions, [{ title: '⟦Set API Key⟧', command: 'den.setApiKey' }]);
  });

  it('a translated sign-in message still offers Set API Key', () => {
    setL10nBundle({ 'Sign in first (Den: Set API Key).': 'Zuerst anmelden (Den: Schlüssel).' }, 'de');
    const p = presentError(
      new DenError({ code: 'config', message: 'Zuerst anmelden (Den: Schlüssel).', details: MISSING_KEY }),
    );
    assert.deepEqual(
      p.actions.map((a) => a.command),
      ['den.setApiKey'],
    );
  });

  it('the Sessions view: group labels read at use time, and the retry line', () => {
    assert.equal(GROUP_LABELS.week, 'Last 7 Days');
    setL10nBundle(PSEUDO(['Last 7 Days', 'Today', '{0} Retrying in {1} s.']), 'de');
    assert.equal(GROUP_LABELS.week, '⟦Last 7 Days⟧');
    assert.equal(GROUP_LABELS.today, '⟦Today⟧');
    assert.equal(GROUP_LABELS.older, 'Older');
    const message = listProblemMessage({
      error: new DenError({ code: 'server', message: 'boom', status: 500 }),
      retryInMs: 3000,
    });
    assert.match(message ?? '', /^⟦Den could not load sessions: .* Retrying in 3 s\.⟧$/);
  });

  it('notifications, links and settings', () => {
    setL10nBundle(
      PSEUDO([
        'Den: “{0}” failed: {1}',
        'Untitled session',
        'it is not a session link (“{0}” is not a session ID, which is a UUID).',
        '"{0}" must start with http:// or https://.',
      ]),
      'de',
    );
    assert.equal(
      attentionText({ kind: 'failed', sessionId: 's', agentMessageId: 'm', title: '', detail: 'boom' }),
      '⟦Den: “⟦Untitled session⟧” failed: boom⟧',
    );
    assert.deepEqual(parseSessionLink('/session/a b'), {
      problem: '⟦it is not a session link (“a b” is not a session ID, which is a UUID).⟧',
    });
    assert.deepEqual(validateBaseUrl('ftp://x'), {
      problem: '⟦"ftp://x" must start with http:// or https://.⟧',
    });
  });

  it('the apply summary and the planner’s reasons, with counts in place', async () => {
    setL10nBundle(
      PSEUDO([
        '{0} changed',
        '{0} (+{1} −{2} lines).',
        '{0} conflicts in {1}.',
        '{0} (line {1})',
        '{0} and {1}',
        'Needs your confirmation:',
        'Write 1 conflict with conflict markers into {0}.',
        '{0} more files left out: Den applies at most {1} files at once.',
      ]),
      'de',
    );
    const plan = await planApply({
      files: ['a', 'b', 'c', 'd'].map((n) => agentFile(n, 'y\n').file),
      folder: fakeFolder({ files: { a: 'w\n', b: 'w\n' } }),
      base: basesOf({ a: 'x\n', b: 'x\n' }),
      maxFiles: 2,
    });
    assert.equal(
      summaryText(plan),
      [
        '⟦⟦2 changed⟧ (+12 −0 lines).⟧',
        '⟦2 conflicts in ⟦⟦a (line 1)⟧ and ⟦b (line 1)⟧⟧.⟧',
        '⟦2 more files left out: Den applies at most 2 files at once.⟧',
        '⟦Needs your confirmation:⟧',
        '⟦Write 1 conflict with conflict markers into a.⟧',
        '⟦Write 1 conflict with conflict markers into b.⟧',
      ].join('\n'),
    );
  });
});
