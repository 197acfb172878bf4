import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import { streamUrl, type StreamUrlParts } from '../../../../src/core/stream/stream-url';

const parts = (over: Partial<StreamUrlParts>): StreamUrlParts => ({
  baseUrl: 'https://api.example.test',
  sessionId: 's-1',
  token: 'sk_test_abc',
  messageId: 'm-1',
  cursor: '0-0',
  ...over,
});

describe('streamUrl', () => {
  const cases: { name: string; over: Partial<StreamUrlParts>; expected: string }[] = [
    {
      name: 'switches https to wss and puts every query field',
      over: {},
      expected:
        'wss://api.example.test/ws/sessions/s-1?token=sk_test_abc&message_id=m-1&last_stream_entry_id=0-0',
    },
    {
      name: 'switches http to ws and keeps the port',
      over: { baseUrl: 'http://127.0.0.1:8123/', cursor: '17-3' },
      expected:
        'ws://127.0.0.1:8123/ws/sessions/s-1?token=sk_test_abc&message_id=m-1&last_stream_entry_id=17-3',
    },
    {
      name: 'keeps a path prefix of the base URL',
      over: { baseUrl: 'https://h.test/api/v1/' },
      expected:
        'wss://h.test/api/v1/ws/sessions/s-1?token=sk_test_abc&message_id=m-1&last_stream_entry_id=0-0',
    },
    {
      name: 'uses the older chat path when asked',
      over: { path: 'chat' },
      expected:
        'wss://api.example.test/ws/chat/s-1?token=sk_test_abc&message_id=m-1&last_stream_entry_id=0-0',
    },
    {
      name: 'encodes ids and the token',
      over: { sessionId: 'a/b c', token: 'k&y=1' },
      expected:
        'wss://api.example.test/ws/sessions/a%2Fb%20c?token=k%26y%3D1&message_id=m-1&last_stream_entry_id=0-0',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(streamUrl(parts(c.over)), c.expected));
  }

  for (const baseUrl of ['not a url', 'ftp://h.test']) {
    it(`refuses the base URL ${baseUrl} with a config error`, () => {
      assert.throws(
        () => streamUrl(parts({ baseUrl })),
        (e: unknown) => e instanceof DenError && e.code === 'config' && !e.message.includes('sk_test_abc'),
      );
    });
  }
});
