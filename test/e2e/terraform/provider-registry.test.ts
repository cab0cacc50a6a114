import { request } from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { AUTO, TerraformSandbox, describeTerraform, throwawayCertificate } from '../../helpers/terraform.js';
import { standInPackage, throwawayKey, type StandInPackage } from '../../helpers/provider-package.js';

/**
 * The real Terraform CLI against berth's provider registry and mirror (issue 44, items 2 and 3),
 * over TLS (Terraform's network mirror must be https): a stand-in provider published as go-tfe
 * does is installed by `terraform init` through providers.v1 (found by discovery), its SHA256SUMS
 * signature checked ("self-signed, key ID ..."); `terraform providers mirror` copies it to a
 * folder, `berth registry mirror push` puts that into another organization's mirror (again: all
 * skipped), and `terraform init` with only a `network_mirror` installs it from there.
 */
describeTerraform('terraform installs providers from berth', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let sandbox: TerraformSandbox;
  let host = '';
  let cert = '';
  const key = throwawayKey();
  const pkg = standInPackage(key, 'standin', '1.0.0');

  /** A request to serve over TLS, trusting its throwaway certificate. */
  const call = (method: string, url: string, body?: unknown, token: string | null = server.token) =>
    new Promise<{ status: number; json: any }>((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = `Bearer ${token}`;
      if (data)
        headers['Content-Type'] = Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/vnd.api+json';
      const req = request(new URL(url, server.url), { method, headers, ca: readFileSync(cert) }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null });
        });
      });
      req.on('error', reject);
      req.end(data);
    });

  async function publish(org: string, p: StandInPackage) {
    const k = await call('POST', '/api/registry/private/v2/gpg-keys', {
      data: { type: 'gpg-keys', attributes: { namespace: org, 'ascii-armor': key.asciiArmor } },
    });
    expect([201, 422]).toContain(k.status);
    const base = `/api/v2/organizations/${org}/registry-providers`;
    expect(
      (
        await call('POST', base, {
          data: {
            type: 'registry-providers',
            attributes: { name: p.name, namespace: org, 'registry-name': 'private' },
          },
        })
      ).status,
    ).toBe(201);
    const v = await call('POST', `${base}/private/${org}/${p.name}/versions`, {
      data: {
        type: 'registry-provider-versions',
        attributes: { version: p.version, 'key-id': key.keyId, protocols: ['5.0'] },
      },
    });
    expect(v.status).toBe(201);
    expect((await call('PUT', v.json.data.links['shasums-upload'], p.shasums, null)).status).toBe(200);
    expect((await call('PUT', v.json.data.links['shasums-sig-upload'], p.signature, null)).status).toBe(200);
    const pl = await call('POST', `${base}/private/${org}/${p.name}/versions/${p.version}/platforms`, {
      data: {
        type: 'registry-provider-platforms',
        attributes: { os: p.os, arch: p.arch, shasum: p.shasum, filename: p.filename },
      },
    });
    expect(pl.status).toBe(201);
    expect((await call('PUT', pl.json.data.links['provider-binary-upload'], p.zip, null)).status).toBe(200);
  }

  const berth = (...args: string[]) =>
    runCli([...args, '--server', server.url, '--token', server.token!], { NODE_EXTRA_CA_CERTS: cert });

  beforeAll(async () => {
    const pair = throwawayCertificate(tmp.dir);
    cert = pair.cert;
    server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key, '--no-execute-runs']);
    host = `localhost:${new URL(server.url).port}`;
    // Terraform cannot ask a mirror about a provider whose hostname has a port (it reads
    // "localhost:PORT/..." as a URL scheme): the registry is named berth.test, a host block away.
    sandbox = new TerraformSandbox(
      { credentials: { [host]: server.token!, [REGISTRY]: server.token! } },
      { SSL_CERT_FILE: pair.cert },
    );
    writeFileSync(
      sandbox.configFile,
      `${readFileSync(sandbox.configFile, 'utf8')}
host "${REGISTRY}" {
  services = {
    "providers.v1" = "https://${host}/api/registry/v1/providers/"
  }
}
`,
    );
    for (const org of ['acme', 'mirrorco'])
      expect((await berth('org', 'create', org, '--email', `ops@${org}.test`)).code).toBe(0);
    await publish('acme', pkg);
  });
  afterAll(async () => {
    await sandbox?.cleanup();
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });

  const REGISTRY = 'berth.test';
  const requiring = `terraform {
  required_providers {
    standin = {
      source  = "HOST/acme/standin"
      version = "1.0.0"
    }
  }
}
`;

  it('init installs the private provider through providers.v1 and checks its signature', async () => {
    const dir = sandbox.workdir('direct', { 'main.tf': requiring.replace('HOST', REGISTRY) });
    const init = await sandbox.run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain(`Installed ${REGISTRY}/acme/standin v1.0.0 (self-signed, key ID ${key.keyId})`);
    const lock = readFileSync(join(dir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`"zh:${pkg.shasum}"`);
  });

  it("refuses a package whose signature is not its key's", async () => {
    const other = throwawayKey();
    const forged = { ...standInPackage(key, 'forged', '1.0.0') };
    forged.signature = other.sign(forged.shasums);
    await publish('acme', forged);
    const dir = sandbox.workdir('forged', {
      'main.tf': requiring.replace('HOST/acme/standin', `${REGISTRY}/acme/forged`).replace('standin =', 'forged ='),
    });
    const init = await sandbox.run(dir, ['init', ...AUTO]);
    expect(init.code).toBe(1);
    expect(init.output).toMatch(/signature|openpgp/i);
  });

  it("mirrors the provider into another organization's mirror (twice: all skipped) and installs it from there", async () => {
    const dir = sandbox.workdir('mirror-source', { 'main.tf': requiring.replace('HOST', REGISTRY) });
    const folder = join(sandbox.dir, 'mirror');
    const mirrored = await sandbox.run(dir, ['providers', 'mirror', '-platform', `${pkg.os}_${pkg.arch}`, folder]);
    expect(mirrored.code, mirrored.output).toBe(0);
    const pushed = await berth('registry', 'mirror', 'push', folder, '--org', 'mirrorco');
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain(`pushed  ${REGISTRY}/acme/standin 1.0.0 ${pkg.os}_${pkg.arch}`);
    const again = await berth('registry', 'mirror', 'push', folder, '--org', 'mirrorco', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((r: any) => r.action)).toEqual(['skipped']);

    const mirrorOnly = sandbox.cliConfig('mirror-only', { credentials: { [host]: server.token! } });
    const config = `${readFileSync(mirrorOnly, 'utf8')}
provider_installation {
  network_mirror {
    url = "https://${host}/api/registry/mirror/mirrorco/"
  }
}
`;
    const configFile = join(sandbox.dir, 'mirror-only.tfrc');
    writeFileSync(configFile, config);
    const work = sandbox.workdir('from-mirror', { 'main.tf': requiring.replace('HOST', REGISTRY) });
    const init = await sandbox.run(work, ['init', ...AUTO], { env: { TF_CLI_CONFIG_FILE: configFile } });
    expect(
      init.code,
      `${init.output}\n${server
        .stderr()
        .split('\n')
        .filter((l) => l.includes('/api/registry'))
        .join('\n')}`,
    ).toBe(0);
    // From the mirror: its zh: hash checked, no signature (the mirror protocol has none).
    expect(init.stdout).toContain(`Installed ${REGISTRY}/acme/standin v1.0.0 (verified checksum)`);
  });
});
