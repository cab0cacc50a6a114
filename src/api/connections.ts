import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * How long a kept-alive connection must have been quiet (no request in flight, nothing received
 * since its last answer) before a shutting-down `serve` closes it. A client that keeps sending
 * gets its next answer with `Connection: close` instead, and closes the connection itself.
 */
export const SHUTDOWN_GRACE_MS = 500;

/** How long a connection closed by the server (a FIN) may take to close its side before it is cut. */
const LINGER_MS = 2000;

interface Connection {
  /** Requests being answered on it. */
  active: number;
  /** When its last answer ended (or it was opened). */
  quietSince: number;
  /** `bytesRead` then: more means the client has begun another request (or is closing). */
  readAtQuiet: number;
  ending: boolean;
}

/**
 * The connections of `serve`'s listener, for a shutdown that resets no client. node's own
 * `server.close()` closes every idle kept-alive connection at once; a client sending its next
 * request at that moment has it cut (a reset), and one whose connection was closed while the
 * listener was still closing meets a reset on its new connection. Here, instead, shutting down
 * stops accepting, answers what arrives on open connections with `Connection: close` (serve.ts),
 * and closes a connection itself only once it has been quiet for SHUTDOWN_GRACE_MS, with a FIN
 * (`end()`), never by destroying it with a request pending.
 */
export class Connections {
  readonly #open = new Map<Socket, Connection>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** How many connections are open. */
  get size(): number {
    return this.#open.size;
  }

  /** Tracks the connections of `server` (its TLS sockets with `tls`: the ones its requests name). */
  attach(server: Server, tls: boolean): void {
    server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => this.#add(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#request(req, res));
  }

  /**
   * Stops accepting connections and resolves once every open one is closed: by its client after
   * an answer with `Connection: close`, or here once it has been quiet long enough.
   */
  shutdown(server: Server): Promise<void> {
    return new Promise((resolve) => {
      const sweep = setInterval(() => this.#closeQuiet(), 50);
      // net's close, not http's: that one would also destroy every idle connection at once.
      NetServer.prototype.close.call(server, () => {
        clearInterval(sweep);
        resolve();
      });
      this.#closeQuiet();
    });
  }

  #add(socket: Socket): void {
    this.#open.set(socket, { active: 0, quietSince: this.now(), readAtQuiet: socket.bytesRead, ending: false });
    socket.once('close', () => this.#open.delete(socket));
  }

  #request(req: IncomingMessage, res: ServerResponse): void {
    const c = this.#open.get(req.socket);
    if (!c) return;
    c.active += 1;
    res.once('close', () => {
      c.active -= 1;
      c.quietSince = this.now();
      c.readAtQuiet = req.socket.bytesRead;
    });
  }

  #closeQuiet(): void {
    const now = this.now();
    for (const [socket, c] of this.#open) {
      if (c.ending || c.active > 0 || now - c.quietSince < SHUTDOWN_GRACE_MS) continue;
      // Bytes arrived since its last answer: a request is on its way (answered, then closed).
      if (socket.bytesRead !== c.readAtQuiet) continue;
      c.ending = true;
      socket.end();
      const cut = setTimeout(() => socket.destroy(), LINGER_MS);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
    }
  }
}

/** Connections one client address may hold open at once (`--max-connections-per-address`). */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/**
 * A cap on the connections one client address holds open: past it, a new connection from that
 * address is closed at once, before a byte is read, so that one client cannot hold every file
 * descriptor of the process (each connection is one, idle or not) and lock out the others.
 */
export class ConnectionsPerAddress {
  readonly #open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** How many connections `address` holds now. */
  count(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /** How many addresses hold connections (idle ones are forgotten). */
  get addresses(): number {
    return this.#open.size;
  }

  /** Counts a new connection of `address` if it is under the cap; false: close it. */
  admit(address: string): boolean {
    const n = this.count(address);
    if (n >= this.max) return false;
    this.#open.set(address, n + 1);
    return true;
  }

  /** A connection admitted for `address` closed. */
  release(address: string): void {
    const n = this.count(address);
    if (n <= 1) this.#open.delete(address);
    else this.#open.set(address, n - 1);
  }

  /** Applies the cap to the TCP connections of `server` (HTTPS too: before the TLS handshake). */
  attach(server: NetServer): void {
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress;
      if (address === undefined || !this.admit(address)) {
        socket.destroy();
        return;
      }
      socket.once('close', () => this.release(address));
    });
  }
}
