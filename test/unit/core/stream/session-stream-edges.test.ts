import assert from 'node:assert/strict';
import { Agent, createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { SessionStream } from '../../../../src/core/stream/session-stream';
import type { SessionStreamOptions } from '../../../../src/core/stream/stream-types';
import { capturingLogger, closeRecordedStreams, count, doneWithin, recordedStream } from './stream-helpers';

const KEY = 'sk_test_edgecasekey0001';
const MESSAGE = 'msg-1';

/** What a scripted connection gets: its number (1-based), the query, and the socket. */
type Script = (ws: WebSocket, n: number, query: URLSearchParams) => void;

interface ScriptedServer {
  url: string;
  connections: URLSearchParams[];
  received: string[];
  closeCodes: number[];
  close(): Promise<void>;
}

/** A real WebSocket server on 127.0.0.1 that plays `script` on every connection. */
async function scriptedServer(script: Script): Promise<ScriptedServer> {
  const http: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server: http });
  const out: Omit<ScriptedServer, 'url' | 'close'> = { connections: [], received: [], closeCodes: [] };
  wss.on('connection', (ws, req) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    out.connections.push(query);
    ws.on('message', (d) => out.received.push(d.toString()));
    ws.on('close', (code) => out.closeCodes.push(code));
    ws.on('error', () => {});
    script(ws, out.connections.length, query);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  return {
    ...out,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

function ev(id: number, kind = 'markdown.chunk', extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    event_id: id,
    stream_entry_id: `100-${id}`,
    kind,
    message_id: MESSAGE,
    payload: { n: id },
    timestamp: 1,
    ...extra,
  });
}

function options(url: string, over: Partial<SessionStreamOptions> = {}): SessionStreamOptions {
  return {
    baseUrl: url,
    apiKey: () => KEY,
    sessionId: 'sess-1',
    messageId: MESSAGE,
    backoff: { initialMs: 5, maxMs: 20 },
    ...over,
  };
}

describe('SessionStream edge cases against scripted servers', () => {
  let server: ScriptedServer | undefined;
  let tcp: TcpServer | undefined;

  afterEach(async () => {
    closeRecordedStreams();
    await server?.close();
    server = undefined;
    await new Promise<void>((r) => (tcp ? tcp.close(() => r()) : r()));
    tcp = undefined;
  });

  it('asks for the message with the key and the start cursor in the query', async () => {
    server = await scriptedServer((ws) => ws.send(ev(1, 'task.completed')));
    const { stream } = recordedStream(options(server.url));
    await doneWithin(stream, 5000);
    const q = server.connections[0];
    assert.equal(q.get('token'), KEY);
    assert.equal(q.get('message_id'), MESSAGE);
    assert.equal(q.get('last_stream_entry_id'), '0-0');
  });

  it('skips binary frames, unknown JSON and frames of another message, and keeps going', async () => {
    server = await scriptedServer((ws) => {
      ws.send(JSON.stringify({ type: 'ack', resume_from: '0-0' }));
      ws.send(Buffer.from([1, 2, 3]), { binary: true });
      ws.send(JSON.stringify({ type: 'mystery' }));
      ws.send(ev(1, 'markdown.chunk', { message_id: 'someone-else' }));
      ws.send(`{"broken": token=${KEY}`);
      ws.send(ev(1));
      ws.send(ev(2, 'task.completed'));
    });
    const { stream, rec } = recordedStream(options(server.url));
    const done = await doneWithin(stream, 5000);
    assert.equal(done.kind, 'completed');
    assert.deepEqual(
      rec.events.map((e) => e.event_id),
      [1, 2],
    );
    assert.equal(rec.events[0].payload.n, 1);
    assert.equal(stream.stats.malformed, 3);
    assert.equal(stream.stats.foreign, 1);
    assert.equal(rec.protocolErrors.length, 3);
    assert.ok(rec.protocolErrors.every((p) => !p.raw.includes(KEY)));
  });

  it('sends client frames in the agreed shapes, queued ones once the socket opens', async () => {
    server = await scriptedServer(() => {});
    const { stream } = recordedStream(options(server.url), false);
    stream.sendStop();
    stream.start();
    await new Promise<void>((r) => {
      const check = (): void => void (server!.received.length >= 1 ? r() : setTimeout(check, 5));
      check();
    });
    stream.sendMessage('hi', [{ key: 'k', name: 'a.txt', type: 'text/plain', size: 1 }]);
    stream.sendRetract();
    stream.sendFileEdits([{ path: 'src/a.ts', content: 'x' }]);
    const s = server;
    await new Promise<void>((r) => {
      const check = (): void => void (s.received.length >= 4 ? r() : setTimeout(check, 5));
      check();
    });
    assert.deepEqual(
      s.received.map((t) => JSON.parse(t)),
      [
        { type: 'stop' },
        { type: 'message', text: 'hi', files: [{ key: 'k', name: 'a.txt', type: 'text/plain', size: 1 }] },
        { type: 'retract' },
        { type: 'file_edits', files: [{ path: 'src/a.ts', content: 'x' }] },
      ],
    );
  });

  it('asks for a replay from the last delivered event when a gap does not fill in time', async () => {
    server = await scriptedServer((ws, n) => {
      if (n === 1) {
        ws.send(ev(1));
        ws.send(ev(3));
        return;
      }
      ws.send(ev(2));
      ws.send(ev(3));
      ws.send(ev(4, 'task.completed'));
    });
    const { stream, rec } = recordedStream(options(server.url, { reorderWindowMs: 40 }));
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    assert.deepEqual(
      rec.events.map((e) => e.event_id),
      [1, 2, 3, 4],
    );
    assert.equal(server.connections.length, 2);
    assert.equal(server.connections[1].get('last_stream_entry_id'), '100-1');
    assert.equal(stream.stats.reordered, 1);
  });

  it('asks for a replay when too many events wait behind a gap', async () => {
    server = await scriptedServer((ws, n) => {
      if (n === 1) {
        ws.send(ev(1));
        for (let i = 3; i <= 10; i++) ws.send(ev(i));
        return;
      }
      for (let i = 2; i <= 10; i++) ws.send(ev(i, i === 10 ? 'task.completed' : 'markdown.chunk'));
    });
    const { stream, rec } = recordedStream(
      options(server.url, { reorderBufferSize: 4, reorderWindowMs: 60_000 }),
    );
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    assert.deepEqual(
      rec.events.map((e) => e.event_id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.equal(server.connections.length, 2);
  });

  it('takes a later first event as the start once a fresh replay from 0-0 agrees', async () => {
    server = await scriptedServer((ws, n) => {
      ws.send(ev(5));
      ws.send(ev(6));
      if (n >= 2) ws.send(ev(7, 'task.completed'));
    });
    const { stream, rec } = recordedStream(options(server.url, { reorderWindowMs: 40 }));
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    assert.deepEqual(
      rec.events.map((e) => e.event_id),
      [5, 6, 7],
    );
    assert.equal(server.connections.length, 2);
    assert.ok(server.connections.every((q) => q.get('last_stream_entry_id') === '0-0'));
  });

  it('reconnects after the TCP connection is destroyed without a close frame', async () => {
    server = await scriptedServer((ws, n) => {
      if (n === 1) {
        ws.send(ev(1), () => (ws as unknown as { _socket: Socket })._socket.destroy());
        return;
      }
      ws.send(ev(1));
      ws.send(ev(2, 'task.completed'));
    });
    const { stream, rec } = recordedStream(options(server.url));
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    assert.deepEqual(
      rec.events.map((e) => e.event_id),
      [1, 2],
    );
    assert.equal(stream.stats.duplicates, 1);
    const r = rec.states.find((s) => s.state === 'reconnecting');
    assert.equal(r?.info.error?.code, 'network');
  });

  it('closes the socket itself after the terminal event when the server keeps it open', async () => {
    server = await scriptedServer((ws) => {
      ws.send(ev(1));
      ws.send(ev(2, 'task.error', { payload: { message: 'boom' } }));
    });
    const { stream } = recordedStream(options(server.url));
    const done = await doneWithin(stream, 5000);
    assert.equal(done.kind, 'error');
    assert.equal(done.event?.payload.message, 'boom');
    const s = server;
    await new Promise<void>((r) => {
      const check = (): void => void (s.closeCodes.length ? r() : setTimeout(check, 5));
      check();
    });
    assert.deepEqual(s.closeCodes, [1000]);
  });

  it('gives up with a timeout when the handshake is never answered', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((s) => sockets.push(s));
    tcp = silent;
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const { stream, rec } = recordedStream(
      options(`http://127.0.0.1:${port}`, { idleTimeoutMs: 60, maxConsecutiveFailures: 3 }),
    );
    const done = await doneWithin(stream, 5000);
    for (const s of sockets) s.destroy();
    assert.equal(done.kind, 'failed');
    assert.equal(done.error?.code, 'timeout');
    assert.equal(count(rec, 'connecting'), 3);
  });

  it('opens the socket through the agent it is given (the proxy tunnel)', async () => {
    server = await scriptedServer((ws) => ws.send(ev(1, 'task.completed')));
    let tunnels = 0;
    class CountingAgent extends Agent {
      override createConnection(
        ...args: Parameters<Agent['createConnection']>
      ): ReturnType<Agent['createConnection']> {
        tunnels++;
        return super.createConnection(...args);
      }
    }
    const agent = new CountingAgent();
    const { stream } = recordedStream(options(server.url, { agent }));
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    agent.destroy();
    assert.equal(tunnels, 1);
  });

  it('survives a listener that throws, logging it', async () => {
    server = await scriptedServer((ws) => {
      ws.send(ev(1));
      ws.send(ev(2, 'task.completed'));
    });
    const seen: number[] = [];
    const log = capturingLogger();
    const stream = new SessionStream(options(server.url, { logger: log }), {
      onEvent: (e) => {
        seen.push(e.event_id);
        throw new Error('listener bug');
      },
    });
    stream.start();
    assert.equal((await doneWithin(stream, 5000)).kind, 'completed');
    assert.deepEqual(seen, [1, 2]);
    assert.ok(log.lines.some((l) => l.startsWith('error') && l.includes('listener bug')));
  });
});
