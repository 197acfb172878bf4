import assert from 'node:assert/strict';
import type { TurnHeader } from '../../../../src/protocol/session-panel/messages';
import {
  formatBytes,
  formatDuration,
  secondsLeft,
  turnStatusText,
  valueText,
} from '../../../../src/webview/shared/format';
import { decodeEntities, safeHref } from '../../../../src/webview/shared/safe-url';
import { SentenceChunker, speakable } from '../../../../src/webview/shared/sentences';

const NOW = 1_800_000_000_000;

function turn(patch: Partial<TurnHeader>): TurnHeader {
  return {
    id: 'a',
    userMessage: { id: 'u', text: 'x', files: [], createdAt: 0 },
    status: 'running',
    hasContinuation: false,
    createdAt: 0,
    ...patch,
  };
}

describe('webview live-region sentences', () => {
  it('announces whole sentences, not tokens', () => {
    const c = new SentenceChunker();
    assert.deepEqual(c.push('The quick'), []);
    assert.deepEqual(c.push(' fox **jumps**. Then'), ['The quick fox jumps.']);
    assert.deepEqual(c.push(' it rests! And'), ['Then it rests!']);
    assert.deepEqual(c.flush(), ['And']);
  });

  it('summarizes code blocks instead of reading them', () => {
    const c = new SentenceChunker();
    const out = [...c.push('See:\n```ts\nconst a = 1;\nconst b = 2;\n```\nDone.\n')];
    assert.deepEqual(out, ['See:', 'Code block.', 'Done.']);
  });

  it('announces an overlong run without a full stop anyway', () => {
    const c = new SentenceChunker();
    const out = c.push('word '.repeat(200));
    assert.ok(out.length >= 2);
    for (const piece of out) assert.ok(piece.length <= 400, `${piece.length}`);
  });

  it('reads Markdown as text', () => {
    assert.equal(
      speakable('## Title with [a link](https://x.test) and `code`'),
      'Title with a link and code',
    );
  });
});

describe('webview formatting', () => {
  const statuses: [Partial<TurnHeader>, string][] = [
    [{ status: 'queued' }, 'Queued'],
    [{ status: 'queued', queuePosition: 3 }, 'Queued (position 3)'],
    [{ status: 'running' }, 'Running'],
    [
      { status: 'running', phase: 'thinking', etaSeconds: 42, etaAt: NOW },
      'Running · thinking · about 42 s left',
    ],
    // An estimate counts down from when it was said (`etaAt`; see eta.test.ts); without that, none.
    [{ status: 'running', phase: 'running', etaSeconds: 150, etaAt: NOW }, 'Running · about 3 min left'],
    [{ status: 'running', phase: 'running', etaSeconds: 150 }, 'Running'],
    [{ status: 'completed' }, 'Completed'],
    [{ status: 'aborted' }, 'Stopped'],
    // A stop the person made, however the service words it, is theirs.
    [{ status: 'aborted', abortReason: 'aborted_by_user' }, 'Stopped by you'],
    [{ status: 'aborted', abortReason: 'USER_ABORT' }, 'Stopped by you'],
    [{ status: 'aborted', abortReason: 'cancelled-by-user' }, 'Stopped by you'],
    [{ status: 'aborted', abortReason: 'Aborted by the user' }, 'Stopped by you'],
    [{ status: 'aborted', abortReason: 'stopped by user' }, 'Stopped by you'],
    // Any other reason in words: a code's underscores become spaces, a sentence stays as it is.
    [{ status: 'aborted', abortReason: 'session_deleted' }, 'Stopped: session deleted'],
    [{ status: 'aborted', abortReason: 'max_runtime_exceeded' }, 'Stopped: max runtime exceeded'],
    [{ status: 'aborted', abortReason: 'Session deleted' }, 'Stopped: Session deleted'],
    [{ status: 'aborted', abortReason: '  ' }, 'Stopped'],
    [
      { status: 'error', error: { message: 'Sandbox died.', code: 'sandbox_failed' } },
      'Failed: Sandbox died.',
    ],
    [{ status: 'error' }, 'Failed: The turn failed.'],
  ];
  for (const [patch, text] of statuses) {
    const why = patch.abortReason !== undefined ? ` for the reason ${JSON.stringify(patch.abortReason)}` : '';
    it(`writes the status line "${text}"${why}`, () => assert.equal(turnStatusText(turn(patch), NOW), text));
  }

  it('formats sizes, durations, countdowns and values', () => {
    assert.deepEqual([0, 1023, 1024, 1536, 10 * 1024 * 1024, 5e12].map(formatBytes), [
      '0 B',
      '1023 B',
      '1.0 KB',
      '1.5 KB',
      '10 MB',
      '4.5 TB',
    ]);
    assert.deepEqual([5, 59, 60, 3599, 3660].map(formatDuration), [
      '5 s',
      '59 s',
      '1 min',
      '1 h',
      '1 h 1 min',
    ]);
    assert.equal(secondsLeft(10_500, 10_000), 1);
    assert.equal(secondsLeft(9_000, 10_000), 0);
    assert.equal(valueText('a\nb'), 'a\nb');
    assert.equal(valueText({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
  });
});

describe('webview link safety', () => {
  const hrefs: [string, string | undefined][] = [
    ['https://example.com', 'https://example.com/'],
    ['HTTP://EXAMPLE.com/A', 'http://example.com/A'],
    ['mailto:a@b.test', 'mailto:a@b.test'],
    ['https://x.test/a b', undefined],
    ['javascript:alert(1)', undefined],
    ['data:text/html,x', undefined],
    ['ftp://x.test/', undefined],
    ['//x.test/', undefined],
    ['https://a@x.test/', undefined],
    ['https://x.test/\u202e', undefined],
    // The URL parser's reading of an odd but harmless form.
    ['https:///host/path', 'https://host/path'],
    ['mailto:', undefined],
  ];
  for (const [raw, expected] of hrefs) {
    it(`maps ${JSON.stringify(raw)} to ${String(expected)}`, () => assert.equal(safeHref(raw), expected));
  }

  it('decodes character references, refusing invalid code points', () => {
    assert.equal(
      decodeEntities('&#106;&#x61;&amp;&lt;&nbsp;&#0;&#xD800;&unknown;'),
      'ja&<\u00a0\ufffd\ufffd&unknown;',
    );
  });
});
