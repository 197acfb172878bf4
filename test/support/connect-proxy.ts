import * as net from 'node:net';

/**
 * A loopback HTTP CONNECT proxy for tests: counts tunnels, optionally demands Basic auth, or drops
 * every CONNECT (closes the socket without an answer) while `dropping` is set.
 */
export interface ConnectProxy {
  readonly url: string;
  /** Authorities (`host:port`) of the tunnels opened so far. */
  readonly tunnels: string[];
  /** CONNECT requests received, answered or not. */
  readonly connects: number;
  /** While true, every CONNECT is answered by closing the socket. */
  dropping: boolean;
  close(): Promise<void>;
}

export async function startConnectProxy(opts: { auth?: string; drop?: boolean } = {}): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  let connects = 0;
  let dropping = opts.drop ?? false;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 16_384) client.destroy();
        return;
      }
      client.off('data', onData);
      const lines = head.subarray(0, end).toString('latin1').split('\r\n');
      const [method, authority] = lines[0].split(' ');
      if (method !== 'CONNECT') {
        client.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      connects++;
      if (dropping) {
        client.destroy();
        return;
      }
      if (opts.auth) {
        const expected =
          `proxy-authorization: basic ${Buffer.from(opts.auth).toString('base64')}`.toLowerCase();
        if (!lines.some((l) => l.toLowerCase() === expected)) {
          client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
          return;
        }
      }
      const sep = authority.lastIndexOf(':');
      const host = authority.slice(0, sep).replace(/^\[|\]$/g, '');
      const port = Number(authority.slice(sep + 1));
      const upstream = net.connect({ host, port }, () => {
        tunnels.push(authority);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      track(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    get connects() {
      return connects;
    },
    get dropping() {
      return dropping;
    },
    set dropping(value: boolean) {
      dropping = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
