import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { hostPlatform, throwawayKey } from '../../helpers/provider-package.js';
import { writeRelease } from '../../helpers/provider-release.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { AUTO, TerraformSandbox, describeTerraform, throwawayCertificate } from '../../helpers/terraform.js';

/**
 * Issue 44: a provider release folder published with the CLI only (`berth registry gpg-key add`,
 * `berth registry provider publish --server`, the archives streamed over HTTP) is what the real Terraform
 * CLI installs through providers.v1, its signature checked against the key. The signature is
 * armored, as `gpg --armor --detach-sign` writes it: berth uploads it as binary packets, which is
 * what Terraform reads.
 */
describeTerraform('terraform installs a provider published with berth registry provider publish', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let sandbox: TerraformSandbox;
  let cert = '';
  const key = throwawayKey('Acme Releases <releases@acme.test>');
  const REGISTRY = 'berth.test';
  const { os, arch } = hostPlatform();

  const berth = (...args: string[]) =>
    runCli([...args, '--server', server.url, '--token', server.token!, '--org', 'acme'], {
      NODE_EXTRA_CA_CERTS: cert,
    });

  beforeAll(async () => {
    const pair = throwawayCertificate(tmp.dir);
    cert = pair.cert;
    server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key, '--no-execute-runs']);
    const host = `localhost:${new URL(server.url).port}`;
    sandbox = new TerraformSandbox({ credentials: { [REGISTRY]: server.token! } }, { SSL_CERT_FILE: pair.cert });
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
    expect(
      (
        await runCli(
          ['org', 'create', 'acme', '--email', 'ops@acme.test', '--server', server.url, '--token', server.token!],
          { NODE_EXTRA_CA_CERTS: cert },
        )
      ).code,
    ).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.cleanup();
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });

  it('gpg-key add, provider publish, then terraform init installs it, self-signed by the key', async () => {
    writeFileSync(join(tmp.dir, 'key.asc'), key.asciiArmor);
    const added = await berth('registry', 'gpg-key', 'add', join(tmp.dir, 'key.asc'));
    expect(added.code, added.stderr).toBe(0);
    const dist = writeRelease(join(tmp.dir, 'dist'), key, 'standin', '1.2.0', [`${os}_${arch}`, 'windows_amd64'], {
      protocols: ['5.0'],
      armored: true,
    });
    const published = await berth('registry', 'provider', 'publish', dist.dir);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain(`Published acme/standin 1.2.0 (key ${key.keyId}, protocols 5.0)`);

    const dir = sandbox.workdir('install', {
      'main.tf': `terraform {
  required_providers {
    standin = {
      source  = "${REGISTRY}/acme/standin"
      version = "1.2.0"
    }
  }
}
`,
    });
    const init = await sandbox.run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain(`Installed ${REGISTRY}/acme/standin v1.2.0 (self-signed, key ID ${key.keyId})`);
    const ours = dist.archives.find((a) => a.platform === `${os}_${arch}`)!;
    expect(readFileSync(join(dir, '.terraform.lock.hcl'), 'utf8')).toContain(`"zh:${ours.shasum}"`);
  });
});
