import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import {
  AUTO,
  TerraformSandbox,
  cloudBlock,
  describeTerraform,
  throwawayCertificate,
} from '../../helpers/terraform.js';

/**
 * The real Terraform CLI finding berth by itself: serve over TLS with a throwaway certificate
 * (trusted through SSL_CERT_FILE), a CLI configuration with only a `credentials` block for
 * localhost:PORT, and no `host` block, so the CLI does service discovery at
 * https://localhost:PORT/.well-known/terraform.json.
 */
describeTerraform('terraform discovers berth serve over TLS', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let sandbox: TerraformSandbox;
  let host = '';
  let cert = '';

  beforeAll(async () => {
    const pair = throwawayCertificate(tmp.dir);
    cert = pair.cert;
    server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key]);
    host = `localhost:${new URL(server.url).port}`;
    sandbox = new TerraformSandbox({ credentials: { [host]: server.token! } }, { SSL_CERT_FILE: pair.cert });
  });
  afterAll(async () => {
    await sandbox?.cleanup();
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });

  it('init and apply through discovery, with credentials for localhost:PORT only', async () => {
    expect(server.url).toMatch(/^https:/);
    const made = await runCli(
      ['org', 'create', 'tls', '--email', 'ops@tls.test', '--server', server.url, '--token', server.token!],
      { NODE_EXTRA_CA_CERTS: cert },
    );
    expect(made.code, made.stderr).toBe(0);
    const dir = sandbox.workdir('tls', {
      'main.tf': `${cloudBlock('tls', 'name = "secure"', host)}
resource "terraform_data" "marker" {
  input = "over TLS"
}

output "greeting" {
  value = terraform_data.marker.output
}
`,
    });
    const init = await sandbox.run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain('HCP Terraform has been successfully initialized!');
    const apply = await sandbox.run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).toContain('greeting = "over TLS"');

    // The CLI asked serve itself for the discovery document, over TLS.
    expect(server.stderr()).toMatch(/GET \/\.well-known\/terraform\.json 200/);
    const outputs = await runCli(
      ['state', 'outputs', 'tls/secure', '--json', '--server', server.url, '--token', server.token!],
      { NODE_EXTRA_CA_CERTS: cert },
    );
    expect(outputs.code, outputs.stderr).toBe(0);
    expect(JSON.parse(outputs.stdout).map((o: any) => o.attributes.value)).toEqual(['over TLS']);
  });

  it('refuses a server whose certificate it does not trust', async () => {
    const untrusting = new TerraformSandbox({ credentials: { [host]: server.token! } });
    try {
      const dir = untrusting.workdir('untrusted', { 'main.tf': cloudBlock('tls', 'name = "secure"', host) });
      const init = await untrusting.run(dir, ['init', ...AUTO]);
      expect(init.code).toBe(1);
      expect(init.stderr).toMatch(/certificate signed by unknown authority|x509/);
    } finally {
      await untrusting.cleanup();
    }
  });
});
