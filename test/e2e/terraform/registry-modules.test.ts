import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { AUTO, describeTerraform, HOST, serveForTerraform } from '../../helpers/terraform.js';

/**
 * The real Terraform CLI against berth's module registry (issue 44, item 1): a module published
 * with `berth registry module publish` is found by `terraform init` through `modules.v1` (the CLI
 * configuration's `host` block maps it, with the host's credentials), its versions listed, its
 * download followed (X-Terraform-Get, a signed URL fetched without credentials), and applied. A
 * newer version whose archive never came is invisible to terraform: a constraint that would
 * choose it installs the published one.
 */

const MODULE = {
  'main.tf': `variable "who" {
  type    = string
  default = "world"
}

resource "terraform_data" "greeting" {
  input = "hello, \${var.who}"
}

output "greeting" {
  value = terraform_data.greeting.output
}
`,
  'README.md': '# greet\n',
};

const root = (org: string, version: string) => `module "x" {
  source  = "${HOST}/${org}/greet/null"
  version = "${version}"
  who     = "berth"
}

output "greeting" {
  value = module.x.greeting
}
`;

describeTerraform('terraform init installs modules from berth', () => {
  const ctx = serveForTerraform({ executeRuns: false });
  const moduleDir = mkdtempSync(join(tmpdir(), 'berth-module-'));
  afterAll(() => rmSync(moduleDir, { recursive: true, force: true }));

  /** A CLI configuration that maps HOST's modules.v1 to serve (and gives its token). */
  function cliConfig(token: string): string {
    const file = join(ctx.sandbox().dir, 'modules.tfrc');
    const q = JSON.stringify;
    writeFileSync(
      file,
      `host ${q(HOST)} {\n  services = {\n    "modules.v1" = ${q(`${ctx.server().url}/api/registry/v1/modules/`)}\n  }\n}\n` +
        `credentials ${q(HOST)} {\n  token = ${q(token)}\n}\n`,
    );
    return file;
  }

  it('publishes a module with berth, then terraform init and apply use it; a pending version is never chosen', async () => {
    const org = 'modreg';
    const berth = await ctx.org(org);
    for (const [name, text] of Object.entries(MODULE)) writeFileSync(join(moduleDir, name), text);
    mkdirSync(join(moduleDir, '.terraform'), { recursive: true });
    writeFileSync(join(moduleDir, '.terraform', 'junk'), 'left out of the archive');

    const published = await berth.remote(
      'registry',
      'module',
      'publish',
      'greet/null',
      '1.0.0',
      '--directory',
      moduleDir,
    );
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain('Published modreg/greet/null 1.0.0');
    expect(published.stdout).toContain('status ok');
    // 1.1.0 created but never uploaded: pending.
    const pending = await ctx.api('POST', `/organizations/${org}/registry-modules/private/${org}/greet/null/versions`, {
      data: { type: 'registry-module-versions', attributes: { version: '1.1.0' } },
    });
    expect(pending.status).toBe(201);
    expect(pending.body.data.attributes.status).toBe('pending');

    const env = { TF_CLI_CONFIG_FILE: cliConfig(ctx.server().token!) };
    const tf = ctx.sandbox();
    const dir = tf.workdir('uses-module', { 'main.tf': root(org, '~> 1.0') });
    const init = await tf.run(dir, ['init', ...AUTO], { env });
    expect(init.code, init.output).toBe(0);
    expect(init.output).toContain(`Downloading ${HOST}/${org}/greet/null 1.0.0 for x...`);
    expect(init.output).not.toContain('1.1.0');

    const apply = await tf.run(dir, ['apply', '-auto-approve', ...AUTO], { env });
    expect(apply.code, apply.output).toBe(0);
    const out = await tf.run(dir, ['output', '-raw', 'greeting'], { env });
    expect(out.stdout).toBe('hello, berth');

    // The exact pending version: terraform finds no such version.
    const exact = tf.workdir('pending-version', { 'main.tf': root(org, '1.1.0') });
    const refused = await tf.run(exact, ['init', ...AUTO], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/no available releases match|Unresolvable module version/);

    // Without credentials, the private registry is not found.
    const anonymous = join(ctx.sandbox().dir, 'anonymous.tfrc');
    writeFileSync(
      anonymous,
      `host ${JSON.stringify(HOST)} {\n  services = {\n    "modules.v1" = ${JSON.stringify(`${ctx.server().url}/api/registry/v1/modules/`)}\n  }\n}\n`,
    );
    const noToken = tf.workdir('anonymous', { 'main.tf': root(org, '1.0.0') });
    const denied = await tf.run(noToken, ['init', ...AUTO], { env: { TF_CLI_CONFIG_FILE: anonymous } });
    expect(denied.code).not.toBe(0);
  });
});
