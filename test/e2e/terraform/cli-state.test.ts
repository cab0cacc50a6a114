import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Day one with the real Terraform CLI and berth serve: the state commands in a `cloud` block
 * workspace that runs remotely. Before any apply: no outputs, no state. After one: state list,
 * state show, state pull, show, output (-json, -raw, a sensitive one); then state mv and state rm,
 * each a new state version in berth (the CLI locks the workspace around it and unlocks it), and a
 * remote plan that starts from the changed state.
 */

const config = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

output "plain" {
  value = terraform_data.a.output
}

output "secret" {
  value     = "s3cr3t"
  sensitive = true
}

output "obj" {
  value = { k = 1, l = ["x", "y"] }
}
`;

const lines = (text: string) => text.split('\n').filter(Boolean);

describeTerraform(
  'terraform state commands against berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, locked, initialized, applied } = scenarioSteps(ctx);

    it('state list/show/pull, show and output read what the remote apply wrote; state mv and rm change what the next plan sees', async () => {
      const org = 'state-cmds';
      const { berth, dir } = await initialized(org, { 'main.tf': config(org) });

      // A new workspace: nothing to show yet.
      const noOutputs = await tf().run(dir, ['output', '-no-color']);
      expect(noOutputs.code, noOutputs.output).toBe(0);
      expect(flat(noOutputs.output)).toContain('Warning: No outputs found');
      const noShow = await tf().run(dir, ['show', '-no-color']);
      expect(noShow.code, noShow.output).toBe(0);
      expect(noShow.stdout).toContain('The state file is empty. No resources are represented.');

      await applied(dir);
      expect(await berth.json('state', 'list', 'app')).toHaveLength(1);

      const list = await tf().run(dir, ['state', 'list']);
      expect(list.code, list.output).toBe(0);
      expect(lines(list.stdout)).toEqual(['terraform_data.a', 'terraform_data.b']);
      const show = await tf().run(dir, ['state', 'show', '-no-color', 'terraform_data.a']);
      expect(show.code, show.output).toBe(0);
      expect(show.stdout).toContain('# terraform_data.a:');
      expect(show.stdout).toMatch(/input\s+= "a"/);
      const pulled = await tf().run(dir, ['state', 'pull']);
      expect(pulled.code, pulled.output).toBe(0);
      const state = JSON.parse(pulled.stdout);
      expect(state.resources.map((r: any) => r.name)).toEqual(['a', 'b']);
      const whole = await tf().run(dir, ['show', '-no-color']);
      expect(whole.stdout).toContain('# terraform_data.b:');
      expect(whole.stdout).toContain('secret = (sensitive value)');

      const json = await tf().run(dir, ['output', '-json']);
      expect(json.code, json.output).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({
        plain: { sensitive: false, type: 'string', value: 'a' },
        secret: { sensitive: true, type: 'string', value: 's3cr3t' },
        obj: {
          sensitive: false,
          type: ['object', { k: 'number', l: ['tuple', ['string', 'string']] }],
          value: { k: 1, l: ['x', 'y'] },
        },
      });
      expect((await tf().run(dir, ['output', '-raw', 'plain'])).stdout).toBe('a');
      expect((await tf().run(dir, ['output', '-raw', 'secret'])).stdout).toBe('s3cr3t');
      const one = await tf().run(dir, ['output', '-no-color', 'secret']);
      expect(one.stdout.trim()).toBe('"s3cr3t"');
      const all = await tf().run(dir, ['output', '-no-color']);
      expect(all.stdout).toContain('secret = <sensitive>');
      const raw = await tf().run(dir, ['output', '-no-color', '-raw', 'obj']);
      expect(raw.code).toBe(1);
      expect(flat(raw.stderr)).toContain('Unsupported value for raw output');

      const moved = await tf().run(dir, ['state', 'mv', '-no-color', 'terraform_data.a', 'terraform_data.c']);
      expect(moved.code, moved.output).toBe(0);
      expect(moved.stdout).toContain('Successfully moved 1 object(s).');
      const removed = await tf().run(dir, ['state', 'rm', '-no-color', 'terraform_data.b']);
      expect(removed.code, removed.output).toBe(0);
      expect(removed.stdout).toContain('Successfully removed 1 resource instance(s).');
      expect(lines((await tf().run(dir, ['state', 'list'])).stdout)).toEqual(['terraform_data.c']);
      // Each command wrote a state version of its own, and let go of the workspace.
      expect(await berth.json('state', 'list', 'app')).toHaveLength(3);
      expect(await locked(org, 'app')).toBe(false);
      const after = JSON.parse((await tf().run(dir, ['state', 'pull'])).stdout);
      expect(after.lineage).toBe(state.lineage);
      expect(after.serial).toBeGreaterThan(state.serial);
      // The outputs berth serves are those of the new current state version.
      expect((await tf().run(dir, ['output', '-raw', 'plain'])).stdout).toBe('a');

      const plan = await tf().run(dir, ['plan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('# terraform_data.a will be created');
      expect(plan.stdout).toContain('# terraform_data.b will be created');
      expect(plan.stdout).toContain('# terraform_data.c will be destroyed');
      expect(plan.stdout).toContain('Plan: 2 to add, 0 to change, 1 to destroy.');
    });
  },
  240_000,
);
