import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Saved cloud plans with the real Terraform CLI and berth serve: `terraform plan -out=FILE` with a
 * `cloud` block creates a saved-plan run (`save-plan: true`), which plans at once, ends
 * `planned_and_saved`, and neither locks the workspace nor blocks its other runs, as in HCP
 * Terraform. `terraform apply FILE` applies it later; once another run changed the workspace's
 * state, the saved plan is stale (discarded) and the CLI refuses it with its own message.
 */

const config = (input: string) => `
resource "terraform_data" "a" {
  input = ${JSON.stringify(input)}
}

output "a" {
  value = terraform_data.a.output
}
`;

describeTerraform(
  'saved cloud plans (terraform plan -out) against berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, run, workspace, locked, initialized, applied } = scenarioSteps(ctx);

    it('a saved plan does not block the workspace: a normal apply goes first, and the saved plan is then refused as stale', async () => {
      const org = 'saved-not-blocking';
      const { dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });
      const plan = await tf().run(dir, ['plan', '-out=saved.tfplan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      // The plan's log prints as for any remote plan (berth's logs are plain text).
      expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
      const id = runIdOf(plan.stdout);
      const saved = await run(id);
      expect(saved.attributes).toMatchObject({ status: 'planned_and_saved', 'save-plan': true, 'has-changes': true });
      expect(saved.attributes.actions['is-confirmable']).toBe(true);
      expect(await locked(org, 'app')).toBe(false);
      expect((await workspace(org, 'app')).relationships['current-run'].data).toBeNull();

      // A normal apply is not held up by the saved plan (no lock, no queue): it applies at once.
      tf().workdir(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('two') });
      const normal = await applied(dir);
      expect(normal.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect(await locked(org, 'app')).toBe(false);

      // The state changed after the saved plan was made: it is discarded, and the CLI says so.
      const stale = await run(id);
      expect(stale.attributes.status).toBe('discarded');
      expect(stale.attributes.actions['is-confirmable']).toBe(false);
      const refused = await tf().run(dir, ['apply', ...AUTO, 'saved.tfplan']);
      expect(refused.code, refused.output).toBe(1);
      expect(flat(refused.stderr)).toContain('Saved plan is discarded');
      expect(flat(refused.stderr)).toContain('either another run was applied first');
      expect((await tf().run(dir, ['output', '-raw', 'a'])).stdout).toBe('two');
      // Nothing holds the workspace: state commands that lock it work.
      const mv = await tf().run(dir, ['state', 'mv', 'terraform_data.a', 'terraform_data.b']);
      expect(mv.code, mv.output).toBe(0);
    });

    it('apply FILE applies the saved run later, after other commands; the workspace stays free meanwhile', async () => {
      const org = 'saved-apply-later';
      const { berth, dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });
      const plan = await tf().run(dir, ['plan', '-out=saved.tfplan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      const id = runIdOf(plan.stdout);
      // Another plan (speculative) runs meanwhile; it changes no state, so the saved plan stays good.
      const speculative = await tf().run(dir, ['plan', ...AUTO]);
      expect(speculative.code, speculative.output).toBe(0);
      expect((await run(id)).attributes.status).toBe('planned_and_saved');

      const apply = await tf().run(dir, ['apply', ...AUTO, 'saved.tfplan']);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const done = await run(id);
      expect(done.attributes.status).toBe('applied');
      expect(done.attributes['status-timestamps']['planned-and-saved-at']).toBeTruthy();
      expect(done.attributes['status-timestamps']['confirmed-at']).toBeTruthy();
      expect(await locked(org, 'app')).toBe(false);
      expect((await workspace(org, 'app')).relationships['current-run'].data.id).toBe(id);
      expect(await berth.json('state', 'list', 'app')).toHaveLength(1);
      const again = await tf().run(dir, ['apply', ...AUTO, 'saved.tfplan']);
      expect(again.code).toBe(1);
      expect(flat(again.stderr)).toContain('Saved plan is already applied');
    });

    it('show FILE renders the saved plan without its sensitive values; show -json FILE prints the JSON plan', async () => {
      const org = 'saved-show';
      const secret = `
variable "secret" {
  type      = string
  default   = "hunter2-very-secret"
  sensitive = true
}

resource "terraform_data" "s" {
  input = var.secret
}
`;
      const { dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') + secret });
      const plan = await tf().run(dir, ['plan', '-out=saved.tfplan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      const id = runIdOf(plan.stdout);

      // The redacted JSON plan (json-output-redacted), rendered by the CLI as a plan.
      const shown = await tf().run(dir, ['show', '-no-color', 'saved.tfplan']);
      expect(shown.code, shown.output).toBe(0);
      expect(shown.stdout).toContain('# terraform_data.a will be created');
      expect(shown.stdout).toMatch(/\+ input\s+= "one"/);
      expect(shown.stdout).toContain('# terraform_data.s will be created');
      // The sensitive input shows as terraform's own plan shows it, and its value nowhere.
      expect(shown.stdout).toMatch(/\+ input\s+= \(sensitive value\)/);
      expect(shown.stdout).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
      expect(shown.stdout).toContain(id);
      expect(shown.output).not.toContain('hunter2');

      // The whole JSON plan (json-output): the workspace's admin (the organization's owner) reads it.
      const json = await tf().run(dir, ['show', '-json', 'saved.tfplan']);
      expect(json.code, json.output).toBe(0);
      const doc = JSON.parse(json.stdout) as { resource_changes: { address: string; change: { actions: string[] } }[] };
      expect(doc.resource_changes.map((rc) => [rc.address, rc.change.actions])).toEqual([
        ['terraform_data.a', ['create']],
        ['terraform_data.s', ['create']],
      ]);

      // It outlives the run: after the apply, the saved plan still shows.
      const apply = await tf().run(dir, ['apply', ...AUTO, 'saved.tfplan']);
      expect(apply.code, apply.output).toBe(0);
      const after = await tf().run(dir, ['show', '-no-color', 'saved.tfplan']);
      expect(after.code, after.output).toBe(0);
      expect(after.stdout).toContain('# terraform_data.a will be created');
    });
  },
  240_000,
);
