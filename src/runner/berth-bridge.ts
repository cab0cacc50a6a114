import { createConnection, createServer, isIP, type Server, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * The one way out of a run sandboxed with `--run-network none` (sandbox.ts): to berth itself, so
 * that terraform still reaches its state, `terraform_remote_state`, the registry and the mirror
 * while nothing else of the network is reachable. The executor listens on a Unix socket in the run's
 * folder and connects each of its connections to berth's own address, and nowhere else; inside the
 * sandbox, a small Node.js program (SHIM_SOURCE) listens on the loopback at berth's port, passes each
 * connection to that socket, and starts terraform. Bytes are relayed as they are: TLS included,
 * verified by terraform against berth's name. A hosts file maps that name to the loopback.
 */

/** Files of the bridge in the run's folder. */
export const BRIDGE_SOCKET = '.berth-bridge.sock';
export const BRIDGE_SHIM = '.berth-bridge.cjs';
export const BRIDGE_HOSTS = '.berth-hosts';

export interface Bridge {
  /** The shim's command line before terraform's: `node SHIM PORT SOCKET`. */
  prefix: string[];
  /** A hosts file naming berth's host at the loopback (null when berth is addressed by an IP). */
  hostsFile: string | null;
  /** Files the sandbox must show read-only (node's binary). */
  readOnly: string[];
  close(): Promise<void>;
}

/** berth's host and port in `apiUrl` (the port of its scheme when the URL names none). */
export function bridgeTarget(apiUrl: string): { host: string; port: number } {
  const u = new URL(apiUrl);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
}

/** Opens the bridge of one phase in `dir` to berth at `apiUrl`; close it when the phase ends. */
export async function openBridge(dir: string, apiUrl: string): Promise<Bridge> {
  const target = bridgeTarget(apiUrl);
  const socketPath = join(dir, BRIDGE_SOCKET);
  const open = new Set<Socket>();
  const server: Server = createServer((inside) => {
    const berth = createConnection({ host: target.host, port: target.port });
    open.add(inside);
    open.add(berth);
    const end = () => {
      inside.destroy();
      berth.destroy();
      open.delete(inside);
      open.delete(berth);
    };
    // A run's connection that fails ends there: never an error of the executor's.
    for (const s of [inside, berth]) {
      s.on('error', end);
      s.on('close', end);
    }
    inside.pipe(berth).pipe(inside);
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const shim = join(dir, BRIDGE_SHIM);
  await writeFile(shim, SHIM_SOURCE, { mode: 0o500 });
  let hostsFile: string | null = null;
  if (!isIP(target.host)) {
    hostsFile = join(dir, BRIDGE_HOSTS);
    await writeFile(hostsFile, `127.0.0.1 localhost ${target.host}\n::1 localhost ip6-localhost\n`);
  }
  return {
    prefix: [process.execPath, shim, String(target.port), socketPath],
    hostsFile,
    readOnly: [process.execPath],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The shim inside the sandbox: `node SHIM PORT SOCKET COMMAND ARGS...`. It listens on the
 * loopback's PORT (IPv4, and IPv6 where there is one), relays each connection to SOCKET, then starts
 * COMMAND with the same standard streams and ends with its exit status. It ignores SIGINT (the
 * executor's interrupt reaches terraform itself, in the same process group) and passes SIGTERM and
 * SIGHUP on.
 */
const SHIM_SOURCE = `'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [port, socket, command, ...args] = process.argv.slice(2);
const relay = (inside) => {
  const out = net.createConnection(socket);
  const end = () => { inside.destroy(); out.destroy(); };
  for (const s of [inside, out]) { s.on('error', end); s.on('close', end); }
  inside.pipe(out).pipe(inside);
};
const v4 = net.createServer(relay);
const v6 = net.createServer(relay);
v6.on('error', () => {});
v4.on('error', (e) => {
  process.stderr.write('berth: the run cannot reach berth through the loopback port ' + port + ': ' + e.message + '\\n');
  process.exit(1);
});
v4.listen(Number(port), '127.0.0.1', () => {
  v6.listen(Number(port), '::1');
  const child = spawn(command, args, { stdio: 'inherit' });
  process.on('SIGINT', () => {});
  for (const s of ['SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => {
    process.stderr.write('berth: ' + command + ' cannot be started: ' + e.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
});
`;
