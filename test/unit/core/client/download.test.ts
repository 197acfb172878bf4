import assert from 'node:assert/strict';
import type { ApiClientOptions } from '../../../../src/core/client/client';
import type { AgentEvent, FileInfo } from '../../../../src/core/client/types';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../emulator';
import { clientFor, newSessionId, rejectsWith } from './helpers';

/** A finished coding turn's generated files, the session's events, and what the tools wrote. */
async function codingTurn(emu: Emulator, env: ReturnType<typeof clientFor>) {
  const sessionId = newSessionId();
  const { agentMessageId } = await env.client.startTurn({
    sessionId,
    task: 'Add a retry helper',
    mode: 'code',
  });
  await emu.turnEnded(sessionId, agentMessageId);
  const detail = await env.client.getSession(sessionId);
  const events: AgentEvent[] = detail.messages.flatMap((m) => m.events);
  const files = Object.values(detail.session.fileSnapshot);
  assert.ok(files.length > 0, 'the turn generated files');
  const written = new Map<string, string>();
  for (const e of events) {
    const p = e.payload.parameters as { path?: string; content?: string } | undefined;
    if (e.kind === 'tool.parameters' && p?.path && typeof p.content === 'string')
      written.set(p.path, p.content);
  }
  const contentOf = (f: FileInfo): string | undefined =>
    [...written.entries()].find(([path]) => f.key.endsWith(path))?.[1];
  return { sessionId, events, files, contentOf };
}

describe('ApiClient.downloadFile', () => {
  const running: Emulator[] = [];
  const clients: ReturnType<typeof clientFor>[] = [];

  async function setup(options: EmulatorOptions, over: Partial<ApiClientOptions> = {}) {
    const emu = await startEmulator({ seed: false, eventDelayMs: 0, ...options });
    running.push(emu);
    const env = clientFor(emu, over);
    clients.push(env);
    return { emu, env };
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((e) => e.close()));
  });

  it('fetches through the media URL template with the Bearer key', async () => {
    const { emu, env } = await setup({ downloads: 'template' });
    const turn = await codingTurn(emu, env);
    for (const f of turn.files) {
      const got = await env.client.downloadFile(f, { sessionEvents: turn.events });
      assert.equal(got.source, 'template');
      assert.equal(got.content.toString('utf8'), turn.contentOf(f));
      const req = env.counter.requests.find((r) => r.path.startsWith('/media/'));
      assert.equal(req?.headers.authorization, `Bearer ${emu.keys.primary}`);
    }
  });

  it('fetches a key that is an absolute URL directly', async () => {
    const { emu, env } = await setup({ downloads: 'absolute-url' });
    const turn = await codingTurn(emu, env);
    const f = turn.files[0];
    assert.match(f.key, /^http:\/\/127\.0\.0\.1:\d+\/media\//);
    const got = await env.client.downloadFile(f, { sessionEvents: turn.events });
    assert.equal(got.source, 'url');
    assert.equal(got.content.toString('utf8'), turn.contentOf(f));
  });

  it('recovers the content from the tool parameters when the service does not serve the file', async () => {
    const { emu, env } = await setup({ downloads: 'none' });
    const turn = await codingTurn(emu, env);
    for (const f of turn.files) {
      const got = await env.client.downloadFile(f, { sessionEvents: turn.events });
      assert.equal(got.source, 'events');
      assert.equal(got.content.toString('utf8'), turn.contentOf(f));
    }
  });

  it('recovers from events when the template source is turned off, without any request', async () => {
    const { emu, env } = await setup({ downloads: 'template' });
    const turn = await codingTurn(emu, env);
    const off = clientFor(emu, { mediaUrlTemplate: '' });
    clients.push(off);
    const got = await off.client.downloadFile(turn.files[0], { sessionEvents: turn.events });
    assert.equal(got.source, 'events');
    assert.equal(off.counter.requests.length, 0);
  });

  it('says plainly that the content is unavailable when no source has it', async () => {
    const { emu, env } = await setup({ downloads: 'none' });
    const turn = await codingTurn(emu, env);
    const f = turn.files[0];
    const err = await rejectsWith(env.client.downloadFile(f, { sessionEvents: [] }), 'unsupported');
    assert.equal(
      err.message,
      `This service does not expose the content of ${f.name}: it cannot be downloaded and no tool wrote it in this session`,
    );
  });

  it('reports the real failure, not "unsupported", when the download was refused', async () => {
    const { emu, env } = await setup({ downloads: 'template' });
    const turn = await codingTurn(emu, env);
    const second = clientFor(emu, { apiKey: () => emu.keys.second });
    clients.push(second);
    await rejectsWith(second.client.downloadFile(turn.files[0]), 'forbidden');
    const recovered = await second.client.downloadFile(turn.files[0], { sessionEvents: turn.events });
    assert.equal(recovered.source, 'events');
  });

  it('retries a download on a server error', async () => {
    const { emu, env } = await setup({ downloads: 'template' });
    const turn = await codingTurn(emu, env);
    emu.failNext({ method: 'GET', path: '^/media/', status: 503 });
    const got = await env.client.downloadFile(turn.files[0]);
    assert.equal(got.source, 'template');
    assert.equal(env.counter.count('GET', /^\/media\//), 2);
  });

  it('uses a custom template and sends no key to another origin', async () => {
    const { emu, env } = await setup({ downloads: 'template' });
    const turn = await codingTurn(emu, env);
    const other = await startEmulator({ seed: false });
    running.push(other);
    const custom = clientFor(emu, { mediaUrlTemplate: `${other.url}/media/{key}` });
    clients.push(custom);
    // The other server holds no such file (404), and no events were given.
    await rejectsWith(custom.client.downloadFile(turn.files[0]), 'unsupported');
    const req = custom.counter.requests.find((r) => r.path.startsWith('/media/'));
    assert.ok(req, 'the custom URL was requested');
    assert.equal(req.headers.authorization, undefined);
  });
});
