import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';

/**
 * Workspace variables in remote runs (berth serve --execute-runs): the real Terraform CLI plans and
 * applies with the workspace's Terraform variables (strings exactly as given, HCL values as HCL)
 * and environment variables; a run's own -var wins over the workspace's; sensitive values, even
 * when the configuration prints them (an output, a local-exec), never appear in the logs the API
 * serves.
 */

const TF_SECRET = 'tf-secret-Zq81vXb27LmN';
const ENV_SECRET = 'env-secret-Hw93kPa04RtY';
const TRICKY = 'say "hi" \\ ${not.a.reference} %{nor} a directive';

const config = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
variable "greeting" {
  type = string
}

variable "tags" {
  type = map(string)
}

variable "color" {
  type = string
}

variable "secret" {
  type = string
}

resource "terraform_data" "echo" {
  input = var.greeting

  provisioner "local-exec" {
    command = "echo env=$SECRET_ENV tf=${'$'}{var.secret}"
  }
}

output "greeting" {
  value = var.greeting
}

output "region" {
  value = var.tags["region"]
}

output "color" {
  value = var.color
}

output "leaked" {
  value = var.secret
}
`;

describeTerraform(
  'workspace variables in runs on berth serve --execute-runs',
  () => {
    const ctx = serveForTerraform({ serveArgs: ['--execute-runs'] });
    const tf = () => ctx.sandbox();
    const api = async (method: string, path: string, body?: unknown) => {
      const server = ctx.server();
      const res = await fetch(`${server.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const logOf = async (url: string) => (await fetch(url)).text();

    it('terraform and env variables change the plan; -var wins; sensitive values never reach the served logs', async () => {
      await ctx.org('vars-org');
      const dir = tf().workdir('vars', { 'main.tf': config('vars-org') });
      const init = await tf().run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      const ws = await api('GET', '/organizations/vars-org/workspaces/app');
      expect(ws.status).toBe(200);
      const add = async (attributes: Record<string, unknown>) => {
        const res = await api('POST', `/workspaces/${ws.body.data.id}/vars`, { data: { type: 'vars', attributes } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      };
      await add({ key: 'greeting', value: TRICKY, category: 'terraform' });
      await add({ key: 'tags', value: '{ region = "eu-west-1" }', category: 'terraform', hcl: true });
      await add({ key: 'TF_VAR_color', value: 'blue', category: 'env' });
      await add({ key: 'secret', value: TF_SECRET, category: 'terraform', sensitive: true });
      await add({ key: 'SECRET_ENV', value: ENV_SECRET, category: 'env', sensitive: true });

      // A plan with the run's own -var: it wins over the workspace's variable of the same key.
      const plan = await tf().run(dir, ['plan', ...AUTO, '-var', 'greeting=from-cli']);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('+ greeting = "from-cli"');
      expect(plan.stdout).toContain('+ region   = "eu-west-1"');
      expect(plan.stdout).toContain('+ color    = "blue"');
      expect(plan.stdout).toContain('+ leaked   = "(sensitive value)"');
      expect(plan.output).not.toContain(TF_SECRET);

      // An apply with the workspace's values; the provisioner prints both secrets.
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain('env=(sensitive value) tf=(sensitive value)');
      expect(apply.output).not.toContain(TF_SECRET);
      expect(apply.output).not.toContain(ENV_SECRET);
      const out = await tf().run(dir, ['output', '-json', '-no-color']);
      expect(out.code, out.output).toBe(0);
      const outputs = JSON.parse(out.stdout);
      expect(outputs.greeting.value).toBe(TRICKY);
      expect(outputs.region.value).toBe('eu-west-1');
      expect(outputs.color.value).toBe('blue');

      // The logs as the API serves them, for every run of the workspace.
      const runs = await api('GET', `/workspaces/${ws.body.data.id}/runs?include=plan,apply`);
      expect(runs.status).toBe(200);
      const phases = (runs.body.included ?? []).filter((r: any) => r.type === 'plans' || r.type === 'applies');
      expect(phases.length).toBeGreaterThanOrEqual(3);
      let concealed = 0;
      for (const phase of phases) {
        const url = phase.attributes['log-read-url'];
        if (!url) continue;
        const log = await logOf(url);
        expect(log).not.toContain(TF_SECRET);
        expect(log).not.toContain(ENV_SECRET);
        if (log.includes('(sensitive value)')) concealed++;
      }
      expect(concealed).toBeGreaterThanOrEqual(2);
    });
  },
  240_000,
);
