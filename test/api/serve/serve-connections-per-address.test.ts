import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionsPerAddress, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../../../src/api/connections.js';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/**
 * One client without credentials could hold every connection of `serve` (issue 32, item 9: 1,100
 * sockets under `ulimit -n 1024` sending /healthz every 4 s reset every other client for 40 s).
 * Each client address may now hold a bounded number of connections; past it, its new ones are
 * closed at once, while other addresses still get in.
 */
describe('the cap on connections per client address', () => {
  it('admits up to the cap per address, each address on its own, and frees a place when a connection closes', () => {
    const cap = new ConnectionsPerAddress(2);
    expect(cap.admit('10.0.0.1')).toBe(true);
    expect(cap.admit('10.0.0.1')).toBe(true);
    expect(cap.admit('10.0.0.1')).toBe(false);
    expect(cap.admit('10.0.0.2')).toBe(true);
    expect(cap.count('10.0.0.1')).toBe(2);
    cap.release('10.0.0.1');
    expect(cap.admit('10.0.0.1')).toBe(true);
    cap.release('10.0.0.1');
    cap.release('10.0.0.1');
    cap.release('10.0.0.2');
    // Nothing is kept for an address without connections.
    expect(cap.addresses).toBe(0);
    expect(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS).toBe(256);
  });
});

describe('serve with --max-connections-per-address', () => {
  const tmp = tempDb();
  const CAP = 4;
  let server: RunningServer;
  let port: number;
  const open: Socket[] = [];

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      maxConnectionsPerAddress: CAP,
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    for (const s of open) s.destroy();
    await server?.close();
    tmp.cleanup();
  });

  /**
   * A connection from `localAddress` (any 127.x.y.z is this machine) that asks for /healthz and
   * stays open: `answered` once its answer came, `closed` if the server closed it without one.
   */
  const healthz = (localAddress: string) =>
    new Promise<{ outcome: 'answered' | 'closed'; socket: Socket }>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, localAddress }, () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: berth.test\r\n\r\n'),
      );
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d) => {
        data += String(d);
        if (/^HTTP\/1\.1 200 /.test(data) && data.includes('\r\n\r\n')) resolve({ outcome: 'answered', socket });
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve({ outcome: 'closed', socket }));
      open.push(socket);
    });

  it('closes the connection past the cap of one address at once, while another address still gets in', async () => {
    for (let i = 0; i < CAP; i++) expect((await healthz('127.0.0.1')).outcome).toBe('answered');
    // The cap's worth of kept-alive connections is open: the next one from that address is closed unanswered.
    expect((await healthz('127.0.0.1')).outcome).toBe('closed');
    expect((await healthz('127.0.0.1')).outcome).toBe('closed');
    // Another client is not locked out.
    const other = await healthz('127.0.0.2');
    expect(other.outcome).toBe('answered');
    // A connection of the first address closes: it may open one again (once the server saw the close).
    const first = open[0];
    first.end();
    await new Promise((resolve) => first.once('close', resolve));
    await expect.poll(async () => (await healthz('127.0.0.1')).outcome, { timeout: 5000 }).toBe('answered');
  });

  it('refuses a negative or fractional cap at start-up', async () => {
    for (const bad of [-1, 1.5])
      await expect(
        startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, maxConnectionsPerAddress: bad }),
      ).rejects.toThrow(/connections per address/);
  });
});
