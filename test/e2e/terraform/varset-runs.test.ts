import { expect, it } from 'vitest';
import { cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';

/**
 * Variable sets reach remote runs (berth serve --execute-runs): an environment variable of a
 * global set (`TF_VAR_greeting`) sets the configuration's variable, and what the remote
 * `terraform plan` shows changes with it; a workspace variable overrides the set.
 */

const CONFIG = `
variable "greeting" {
  type    = string
  default = "from-default"
}

resource "terraform_data" "marker" {
  input = var.greeting
}
`;

const NO_INPUT = ['-input=false', '-no-color'];

describeTerraform(
  'variable sets in remote runs',
  () => {
    const ctx = serveForTerraform({ serveArgs: ['--execute-runs'] });

    it('an env variable of a global set changes the remote plan; a workspace variable overrides it', async () => {
      await ctx.org('varset-org');
      const server = ctx.server();
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server.url}/api/v2${path}`, {
          method,
          headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        expect(res.status, text).toBeLessThan(300);
        return text ? JSON.parse(text) : null;
      };
      await call('POST', '/organizations/varset-org/varsets', {
        data: {
          type: 'varsets',
          attributes: { name: 'greetings', global: true },
          relationships: {
            vars: {
              data: [{ type: 'vars', attributes: { key: 'TF_VAR_greeting', value: 'from-varset', category: 'env' } }],
            },
          },
        },
      });

      const tf = ctx.sandbox();
      const dir = tf.workdir('varset', { 'main.tf': cloudBlock('varset-org', 'name = "app"') + CONFIG });
      const init = await tf.run(dir, ['init', ...NO_INPUT]);
      expect(init.code, init.output).toBe(0);
      const plan = await tf.run(dir, ['plan', ...NO_INPUT]);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('"from-varset"');
      expect(plan.stdout).not.toContain('"from-default"');

      // The workspace's own Terraform variable wins over the set's environment variable.
      const ws = await call('GET', '/organizations/varset-org/workspaces/app');
      await call('POST', `/workspaces/${ws.data.id}/vars`, {
        data: { type: 'vars', attributes: { key: 'greeting', value: 'from-workspace', category: 'terraform' } },
      });
      const again = await tf.run(dir, ['plan', ...NO_INPUT]);
      expect(again.code, again.output).toBe(0);
      expect(again.stdout).toContain('"from-workspace"');
      expect(again.stdout).not.toContain('"from-varset"');

      // A priority set applied to the workspace wins over the workspace's variable.
      await call('POST', '/organizations/varset-org/varsets', {
        data: {
          type: 'varsets',
          attributes: { name: 'enforced', priority: true },
          relationships: {
            workspaces: { data: [{ type: 'workspaces', id: ws.data.id }] },
            vars: {
              data: [{ type: 'vars', attributes: { key: 'greeting', value: 'from-priority', category: 'terraform' } }],
            },
          },
        },
      });
      const enforced = await tf.run(dir, ['plan', ...NO_INPUT]);
      expect(enforced.code, enforced.output).toBe(0);
      expect(enforced.stdout).toContain('"from-priority"');
      expect(enforced.stdout).not.toContain('"from-workspace"');

      // ... and over the run's own -var: the executor leaves out what a priority set overrides.
      const overridden = await tf.run(dir, ['plan', ...NO_INPUT, '-var', 'greeting=from-cli']);
      expect(overridden.code, overridden.output).toBe(0);
      expect(overridden.stdout).toContain('"from-priority"');
      expect(overridden.stdout).not.toContain('"from-cli"');
    });
  },
  240_000,
);
