import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { DenError } from '../../../../src/core/client/errors';
import { startEmulator, type Emulator } from '../../../emulator';
import { capturingLogger, clientFor, newSessionId } from './helpers';

describe('API key redaction', () => {
  let emu: Emulator;

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0 });
  });
  after(() => emu.close());

  /** Everything a failing call leaves behind that a person or a log could see. */
  function visible(err: unknown): string {
    assert.ok(err instanceof DenError, `expected a DenError, got ${String(err)}`);
    return JSON.stringify([err.message, err.serverError, err.details, err.name, String(err), err.stack]);
  }

  // A key the generic `sk_live_…` pattern would not catch: only the explicit redaction can.
  const keys = ['custom-key-9f8e7d6c5b4a', 'sk_live_notKnownToTheEmulator42'];
  for (const key of keys) {
    it(`keeps "${key.slice(0, 10)}…" out of every error and log line over a run of failing calls`, async () => {
      const logger = capturingLogger();
      const env = clientFor(emu, { apiKey: () => key, logger });
      const echo = {
        error: `bad ${key}`,
        message: `Key ${key} rejected`,
        details: { key, list: [`Bearer ${key}`] },
      };
      emu.failNext({ path: '^/sessions$', status: 500, body: echo, times: 4 });
      emu.failNext({ path: '^/sessions/echo-text$', status: 502, body: `proxy says ${key}`, times: 4 });
      emu.failNext({ path: '^/lam/run$', status: 400, body: echo });
      const calls: Promise<unknown>[] = [
        env.client.listSessions(),
        env.client.getSession('echo-text'),
        env.client.getSession(key),
        env.client.startTurn({ sessionId: newSessionId(), task: key }),
        env.client.renameSession(key, key),
        env.client.deleteSession('x'),
        env.client.abortMessage(key),
        env.client.upload({
          key,
          filename: `${key}.txt`,
          contentType: 'text/plain',
          size: 1,
          body: Readable.from([Buffer.from('x')]),
        }),
        env.client.downloadFile({ key, name: key, size: 1 }),
        env.client.lamRun({ query: key, appUrl: 'https://a.example' }),
      ];
      const errors: unknown[] = [];
      for (const call of calls)
        await call.then(
          () => assert.fail('expected a failure'),
          (e: unknown) => errors.push(e),
        );
      await env.close();
      assert.equal(errors.length, calls.length);
      for (const e of errors) {
        const text = visible(e);
        assert.ok(!text.includes(key), `error leaks the key: ${text}`);
      }
      assert.ok(logger.lines.length >= calls.length, 'the run was logged');
      for (const line of logger.lines) assert.ok(!line.includes(key), `log leaks the key: ${line}`);
      assert.ok(
        logger.lines.some((l) => l.includes('***')),
        'the key was replaced, not dropped silently',
      );
    });
  }
});
