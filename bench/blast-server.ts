import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import type { AgentEvent } from '../src/core/client/types';
import { eventFactory } from '../test/support/events';

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
  const ev = eventFactory({ messageId });
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    let e: AgentEvent;
    if (i === count) e = ev('task.completed', {});
    else if (i % 50 === 0)
      e = ev(
        'tool.log',
        { stream: 'stdout', data: `line ${i}: compiling module ${i % 97}\n` },
        'tool:run_command:1',
      );
    else if (i % 20 === 0) e = ev('thought', { thought: 'Considering the next step. ' }, 'thought:1');
    else e = ev('markdown.chunk', { delta: `word${i % 1000} and some more text, ` }, 'answer:main');
    out.push(JSON.stringify(e));
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
