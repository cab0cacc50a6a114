import { writeFileSync } from 'node:fs';
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
import { standInPackage, throwawayKey } from '../../helpers/provider-package.js';
import { httpsApi } from '../../helpers/provider-https.js';

/**
 * Runs berth executes install their providers from berth (issue 44, item 4), with no internet:
 * a run on serve (over TLS, `--hostname berth.test`) whose configuration requires a private
 * provider of its organization (berth.test/acme/standin) and a provider of the public registry
 * that was pushed into the organization's mirror (hashicorp/pushed, from registry.terraform.io,
 * which this machine cannot reach). The run's `terraform init` installs both from the mirror
 * (the run's CLI configuration puts it first, with the run token); the stand-ins cannot be
 * started, so the plan then fails, and the test reads the init lines of the run's log.
 */
describeTerraform('runs install providers from the organization mirror', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let sandbox: TerraformSandbox;
  let host = '';
  const key = throwawayKey();
  const own = standInPackage(key, 'standin', '1.0.0');
  const pushed = standInPackage(key, 'pushed', '2.0.0');

  beforeAll(async () => {
    const pair = throwawayCertificate(tmp.dir);
    server = await startServe(tmp.db, [
      '--tls-cert',
      pair.cert,
      '--tls-key',
      pair.key,
      '--execute-runs',
      '--hostname',
      'berth.test',
    ]);
    host = `localhost:${new URL(server.url).port}`;
    const made = await runCli(
      ['org', 'create', 'acme', '--email', 'ops@acme.test', '--server', server.url, '--token', server.token!],
      {
        NODE_EXTRA_CA_CERTS: pair.cert,
      },
    );
    expect(made.code, made.stderr).toBe(0);
    const api = httpsApi(server.url, pair.cert, server.token!);
    await api.publish('acme', key, own);
    const push = await api.call(
      'PUT',
      `/api/registry/mirror/acme/registry.terraform.io/hashicorp/pushed/${pushed.filename}`,
      pushed.zip,
    );
    expect(push.status, JSON.stringify(push.json)).toBe(201);
    // The person's own terraform (init before the remote run) uses the same mirror.
    sandbox = new TerraformSandbox(
      { credentials: { [host]: server.token!, 'berth.test': server.token! } },
      { SSL_CERT_FILE: pair.cert },
    );
    writeFileSync(
      sandbox.configFile,
      `credentials "${host}" {
  token = "${server.token}"
}
credentials "berth.test" {
  token = "${server.token}"
}
host "berth.test" {
  services = {
    "providers.v1" = "https://${host}/api/registry/v1/providers/"
  }
}
provider_installation {
  network_mirror {
    url = "https://${host}/api/registry/mirror/acme/"
  }
}
`,
    );
  });
  afterAll(async () => {
    await sandbox?.cleanup();
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });

  it("a run's init installs the organization's private provider and a pushed public one from the mirror", async () => {
    const dir = sandbox.workdir('run', {
      'main.tf': `${cloudBlock('acme', 'name = "providers"', host)}
terraform {
  required_providers {
    standin = {
      source  = "berth.test/acme/standin"
      version = "1.0.0"
    }
    pushed = {
      source  = "hashicorp/pushed"
      version = "2.0.0"
    }
  }
}
`,
    });
    const init = await sandbox.run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    const apply = await sandbox.run(dir, ['apply', '-auto-approve', ...AUTO]);
    // The stand-ins are no providers: the plan fails once terraform starts them.
    expect(apply.code, apply.output).not.toBe(0);
    // The run's init installed both (the executor logs no init lines when it succeeds): terraform
    // then starts each from the run folder's .terraform/providers. hashicorp/pushed can only have
    // come from the mirror: registry.terraform.io is out of reach here.
    const log = apply.output.replace(/\s+/g, ' ');
    expect(log).toContain('Terraform run');
    expect(log).not.toMatch(/Failed to query available provider packages|Failed to install provider/);
    expect(log).toContain('failed to instantiate provider "berth.test/acme/standin"');
    expect(log).toContain('failed to instantiate provider "registry.terraform.io/hashicorp/pushed"');
    expect(log).toContain('.terraform/providers/registry.terraform.io/hashicorp/pushed/2.0.0/');
  });
});
