import assert from 'node:assert/strict';
import { dispatch, type Handlers } from '../../../../src/protocol/shared/handlers';
import {
  checkWebviewMessage,
  type WebviewMessage,
} from '../../../../src/protocol/session-panel/webview-messages';

type Msg = { type: 'ping'; n: number } | { type: 'stop' };

describe('Handler maps', () => {
  function rig(): { calls: string[]; handlers: Handlers<Msg, void> } {
    const calls: string[] = [];
    return {
      calls,
      handlers: {
        ping: (m) => {
          calls.push(`ping ${m.n}`);
        },
        stop: () => {
          calls.push('stop');
        },
      },
    };
  }

  it('calls the handler of the message type with the message', () => {
    const { calls, handlers } = rig();
    dispatch(handlers, { type: 'ping', n: 2 });
    dispatch(handlers, { type: 'stop' });
    assert.deepEqual(calls, ['ping 2', 'stop']);
  });

  it('returns what the handler returns (a promise to await)', async () => {
    const handlers: Handlers<Msg> = { ping: async () => undefined, stop: () => undefined };
    const r = dispatch(handlers, { type: 'ping', n: 1 });
    assert.ok(r instanceof Promise);
    await r;
  });

  const unknown: [string, unknown][] = [
    ['an unlisted type', { type: 'eval' }],
    ['a type inherited from Object', { type: 'toString' }],
    ['the constructor', { type: 'constructor' }],
    ['__proto__', JSON.parse('{"type":"__proto__"}')],
    ['a type that is not a string', { type: 1 }],
  ];
  for (const [what, m] of unknown) {
    it(`refuses ${what}, calling no handler`, () => {
      const { calls, handlers } = rig();
      assert.throws(() => dispatch(handlers, m as Msg), TypeError);
      assert.deepEqual(calls, []);
    });
  }

  it('will not compile without a handler for every type', () => {
    // @ts-expect-error `stop` has no handler
    const partial: Handlers<Msg> = { ping: () => undefined };
    assert.ok(partial);
  });

  it('covers every webview message: a checked message always has its handler', () => {
    const seen: string[] = [];
    const record = (m: WebviewMessage): void => {
      seen.push(m.type);
    };
    const all: Handlers<WebviewMessage, void> = {
      ready: record,
      send: record,
      stop: record,
      pickAttachments: record,
      removeAttachment: record,
      dropUris: record,
      openLink: record,
      openFile: record,
      copy: record,
      showFullLog: record,
      retry: record,
      heldTurn: record,
      answer: record,
      probeResult: record,
      composerChoice: record,
      runCommand: record,
      keepOpen: record,
    };
    const m = checkWebviewMessage({ type: 'heldTurn', action: 'edit' });
    assert.ok(m);
    dispatch(all, m);
    assert.deepEqual(seen, ['heldTurn']);
    assert.equal(checkWebviewMessage({ type: 'eval' }), undefined);
  });
});
