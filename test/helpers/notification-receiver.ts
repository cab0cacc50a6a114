import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

/**
 * A receiving HTTP server for notification tests, on loopback: it records every request and
 * answers by path: `/status/NNN` with that status, `/hang` never (until closed), anything else 200
 * with a small JSON body. `next(n)` waits for the n-th request (no sleeping).
 */
export class NotificationReceiver {
  readonly received: Received[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];
  private readonly hanging = new Set<import('node:http').ServerResponse>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<NotificationReceiver> {
    const holder: { receiver?: NotificationReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => holder.receiver!.record(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.receiver = new NotificationReceiver(server, `http://127.0.0.1:${port}`);
    return holder.receiver;
  }

  private record(req: IncomingMessage, body: string, res: import('node:http').ServerResponse): void {
    let json: any = null;
    try {
      json = JSON.parse(body);
    } catch {
      json = null;
    }
    this.received.push({ path: req.url ?? '/', headers: req.headers, body, json });
    for (const w of this.waiters.filter((w) => this.received.length >= w.n)) w.resolve();
    this.waiters = this.waiters.filter((w) => this.received.length < w.n);
    const path = req.url ?? '/';
    if (path.startsWith('/hang')) {
      this.hanging.add(res);
      return;
    }
    const status = /^\/status\/(\d{3})/.exec(path);
    res.writeHead(status ? Number(status[1]) : 200, { 'content-type': 'application/json', 'x-receiver': 'test' });
    res.end(JSON.stringify({ received: this.received.length }));
  }

  /** Resolves once `n` requests arrived in all. */
  next(n: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
