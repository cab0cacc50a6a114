import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform, TERRAFORM } from '../../helpers/terraform.js';

/**
 * `terraform import` on a workspace that executes remotely runs on the CLI's machine, with the
 * workspace's Terraform variables fetched from berth (hashicorp/terraform internal/cloud
 * backend_context.go, LocalRun). Terraform 1.14 and later read them from
 * `GET /workspaces/:id/all-vars` (go-tfe's Variables.ListAll): the workspace's own and its
 * variable sets', after precedence. Older CLIs read `GET /workspaces/:id/vars`, the workspace's
 * own only, so a variable that only a set gives is missing for them (hashicorp/terraform#33945).
 * The configuration's validations accept only the values precedence gives, so the import
 * succeeds only with exactly those.
 */

const CONFIG = `
variable "greeting" {
  type = string
  validation {
    condition     = var.greeting == "from-workspace"
    error_message = "greeting is not the workspace's value."
  }
}

variable "region" {
  type = string
  validation {
    condition     = var.region == "from-set"
    error_message = "region is not the set's value."
  }
}

resource "terraform_data" "imported" {
  input = "\${var.greeting}-\${var.region}"
}
`;

/** Whether the CLI on the PATH reads all-vars (Terraform 1.14.0 and later, hashicorp/terraform#37241). */
function readsAllVars(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 14);
}

describeTerraform(
  'terraform import with the workspace variables and variable sets',
  () => {
    const ctx = serveForTerraform();

    it('gets the values precedence gives (all-vars from 1.14 on; the workspace’s own before)', async () => {
      await ctx.org('import-org');
      const tf = ctx.sandbox();
      const dir = tf.workdir('import', { 'main.tf': cloudBlock('import-org', 'name = "app"') + CONFIG });
      const init = await tf.run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);

      const ws = await ctx.api('GET', '/organizations/import-org/workspaces/app');
      expect(ws.status).toBe(200);
      expect(ws.body.data.attributes['execution-mode']).toBe('remote');
      const wsVar = await ctx.api('POST', `/workspaces/${ws.body.data.id}/vars`, {
        data: { type: 'vars', attributes: { key: 'greeting', value: 'from-workspace', category: 'terraform' } },
      });
      expect(wsVar.status, JSON.stringify(wsVar.body)).toBe(201);
      // A global set: its greeting loses to the workspace's, its region is the only one.
      const set = await ctx.api('POST', '/organizations/import-org/varsets', {
        data: {
          type: 'varsets',
          attributes: { name: 'defaults', global: true },
          relationships: {
            vars: {
              data: [
                { type: 'vars', attributes: { key: 'greeting', value: 'from-set', category: 'terraform' } },
                { type: 'vars', attributes: { key: 'region', value: 'from-set', category: 'terraform' } },
              ],
            },
          },
        },
      });
      expect(set.status, JSON.stringify(set.body)).toBe(201);

      const imported = await tf.run(dir, ['import', ...AUTO, 'terraform_data.imported', 'some-id']);
      if (readsAllVars(TERRAFORM!.version)) {
        expect(imported.code, imported.output).toBe(0);
        expect(imported.stdout).toContain('Import successful!');
        // The import wrote the workspace's state on berth.
        const state = await ctx.api('GET', `/workspaces/${ws.body.data.id}/current-state-version`);
        expect(state.status, JSON.stringify(state.body)).toBe(200);
        const list = await tf.run(dir, ['state', 'list']);
        expect(list.stdout.trim()).toBe('terraform_data.imported');
      } else {
        // The workspace's own variable arrived (no validation error for greeting); the set's did not.
        expect(imported.code).toBe(1);
        const text = flat(imported.output);
        expect(text).toContain('No value for required variable');
        expect(text).toContain('The root module input variable "region" is not set');
        expect(text).not.toContain('greeting');
      }
    });
  },
  120_000,
);
