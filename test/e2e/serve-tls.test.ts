import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl binary at test time. */
function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}-cert.pem`);
  const key = join(dir, `${name}-key.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

function getStatus(url: string, ca?: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });
}

describe('berth serve over HTTPS', () => {
  const tmp = tempDb();
  let pair: { cert: string; key: string };
  let server: ServeProcess;

  beforeAll(async () => {
    pair = selfSigned(tmp.dir, 'a');
    server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key]);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) await server.stop();
    tmp.cleanup();
  });

  it('says https in its listening line and answers over TLS with the given certificate', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await getStatus(`${server.url}/api/v2/ping`, readFileSync(pair.cert))).toBe(204);
    // A client that does not trust the certificate is refused by TLS itself: it really is TLS.
    await expect(getStatus(`${server.url}/api/v2/ping`)).rejects.toThrow(/self-signed|self signed/);
  });

  it('serves the CLI with --server https://... when the CLI trusts the certificate', async () => {
    const env = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token!, NODE_EXTRA_CA_CERTS: pair.cert };
    const created = await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test', '--json'], env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).id).toBe('acme');
    await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/POST \/api\/v2\/organizations 201 /);
  });

  it('gives no warning on loopback, and stops cleanly', async () => {
    expect(server.stderr()).not.toContain('warning');
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain('berth stopped');
  });
});

describe('berth serve: TLS flag errors and the beyond-loopback warning', () => {
  const tmp = tempDb();
  let pair: { cert: string; key: string };
  let other: { cert: string; key: string };
  const serve = (...args: string[]) => runCli(['serve', '--port', '0', '--db', tmp.db, ...args]);

  beforeAll(() => {
    pair = selfSigned(tmp.dir, 'a');
    other = selfSigned(tmp.dir, 'b');
  });
  afterAll(() => tmp.cleanup());

  const expectUsageError = (res: { code: number; stderr: string }, message: RegExp) => {
    expect(res.code).toBe(2);
    // oclif wraps long error lines, each continuation starting with "›".
    expect(res.stderr.replace(/\s*\n\s*›\s*/g, ' ')).toMatch(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stderr).not.toContain('berth listening');
  };

  it('needs --tls-cert and --tls-key together', async () => {
    expectUsageError(await serve('--tls-cert', pair.cert), /--tls-cert and --tls-key go together/);
    expectUsageError(await serve('--tls-key', pair.key), /--tls-cert and --tls-key go together/);
  });

  it('says which file it cannot read, and why', async () => {
    const missing = join(tmp.dir, 'nope.pem');
    expectUsageError(
      await serve('--tls-cert', missing, '--tls-key', pair.key),
      new RegExp(`cannot read the TLS certificate ${missing}: no such file`),
    );
    expectUsageError(
      await serve('--tls-cert', pair.cert, '--tls-key', tmp.dir),
      /cannot read the TLS key .*: it is a directory/,
    );
  });

  it('refuses a key that is not PEM, or that does not match the certificate', async () => {
    const garbage = join(tmp.dir, 'garbage.pem');
    writeFileSync(garbage, 'not a key\n');
    expectUsageError(
      await serve('--tls-cert', pair.cert, '--tls-key', garbage),
      /cannot serve HTTPS with this certificate and key/,
    );
    expectUsageError(
      await serve('--tls-cert', pair.cert, '--tls-key', other.key),
      /cannot serve HTTPS with this certificate and key/,
    );
  });

  it('warns on stderr when it listens beyond loopback without TLS, not with TLS', async () => {
    const plain = await startServe(tmp.db, ['--host', '0.0.0.0']);
    expect(await plain.stop()).toBe(0);
    expect(plain.stderr()).toMatch(/warning: listening on 0\.0\.0\.0, beyond loopback, without TLS/);
    const secure = await startServe(tmp.db, ['--host', '0.0.0.0', '--tls-cert', pair.cert, '--tls-key', pair.key]);
    expect(await secure.stop()).toBe(0);
    expect(secure.url).toMatch(/^https:\/\/0\.0\.0\.0:\d+$/);
    expect(secure.stderr()).not.toContain('warning');
  });
});
