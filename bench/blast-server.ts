import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';

/**
 * A loopback WebSocket server that speaks the session-stream protocol as fast as it can: an ack,
 * then every pre-serialized frame after `last_stream_entry_id`, then a terminal event. Used by the
 * pipeline benchmark so the emulator's pacing does not hide the client's own cost.
 */
export interface BlastServer {
  url: string;
  frames: string[];
  close(): Promise<void>;
}

/** Realistic frames: mostly markdown chunks, some tool logs and thoughts. */
export function makeFrames(count: number, messageId: string): string[] {
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    const base = {
      event_id: i,
      stream_entry_id: `1700000000000-${i}`,
      message_id: messageId,
      timestamp: 1700000000000 + i,
    };
    let ev: Record<string, unknown>;
    if (i === count) ev = { ...base, kind: 'task.completed', payload: {} };
    else if (i % 50 === 0)
      ev = {
        ...base,
        kind: 'tool.log',
        block_id: 'tool:run_command:1',
        payload: { stream: 'stdout', data: `line ${i}: compiling module ${i % 97}\n` },
      };
    else if (i % 20 === 0)
      ev = {
        ...base,
        kind: 'thought',
        block_id: 'thought:1',
        payload: { thought: 'Considering the next step. ' },
      };
    else
      ev = {
        ...base,
        kind: 'markdown.chunk',
        block_id: 'answer:main',
        payload: { delta: `word${i % 1000} and some more text, ` },
      };
    out.push(JSON.stringify(ev));
  }
  return out;
}

export async function startBlastServer(frames: string[]): Promise<BlastServer> {
  const http: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (ws, req) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const after = Number((q.get('last_stream_entry_id') ?? '0-0').split('-')[1] ?? 0);
    ws.send(JSON.stringify({ type: 'ack', resume_from: q.get('last_stream_entry_id') ?? '0-0' }));
    for (let i = after; i < frames.length; i++) ws.send(frames[i]);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    frames,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
