import { expect, it } from 'vitest';
import { cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';

/**
 * Remote execution (berth serve executes runs by default): the real Terraform CLI's own
 * workflow, with its `cloud` block, runs plans and applies on berth, streams their logs, and
 * finds the state the run wrote.
 */

const config = (input: string, extra = '') => `
resource "terraform_data" "marker" {
  input = ${input}
}

output "greeting" {
  value = terraform_data.marker.output
}
${extra}`;

const NO_INPUT = ['-input=false', '-no-color'];

describeTerraform(
  'terraform runs remotely on berth serve',
  () => {
    const ctx = serveForTerraform();
    const tf = () => ctx.sandbox();

    it('terraform plan streams the remote plan and exits as HCP does', async () => {
      await ctx.org('plan-org');
      const dir = tf().workdir('plan', { 'main.tf': cloudBlock('plan-org', 'name = "app"') + config('"hello"') });
      const init = await tf().run(dir, ['init', ...NO_INPUT]);
      expect(init.code, init.output).toBe(0);
      const plan = await tf().run(dir, ['plan', ...NO_INPUT]);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain('Running plan in HCP Terraform');
      expect(plan.stdout).toContain('# terraform_data.marker will be created');
      expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    });

    it('terraform apply -auto-approve applies remotely; the run made the state version; terraform output reads it', async () => {
      const berth = await ctx.org('apply-org');
      // terraform.workspace in a remote run is the workspace's name, as on HCP Terraform.
      const dir = tf().workdir('apply', {
        'main.tf':
          cloudBlock('apply-org', 'name = "app"') +
          config('"hello"', 'output "workspace" {\n  value = terraform.workspace\n}\n'),
      });
      expect((await tf().run(dir, ['init', ...NO_INPUT])).code).toBe(0);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...NO_INPUT]);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const versions = await berth.json('state', 'list', 'app');
      expect(versions).toHaveLength(1);
      // The run that applied is over and applied; its plan counted the addition.
      const runId = /runs\/(run-[A-Za-z0-9]{16})/.exec(apply.stdout)![1];
      const server = ctx.server();
      const get = (path: string) =>
        fetch(`${server.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${server.token}` } }).then(
          (r) => r.json() as Promise<any>,
        );
      const run = (await get(`/runs/${runId}`)).data;
      expect(run.attributes).toMatchObject({ status: 'applied', 'has-changes': true, 'auto-apply': true });
      const planDoc = (await get(`/plans/${run.relationships.plan.data.id}`)).data;
      expect(planDoc.attributes).toMatchObject({ status: 'finished', 'resource-additions': 1 });
      const ws = (await get(`/runs/${runId}`)).data.relationships.workspace.data.id;
      expect((await get(`/workspaces/${ws}`)).data.attributes.locked).toBe(false);
      const output = await tf().run(dir, ['output', '-json', '-no-color']);
      expect(output.code, output.output).toBe(0);
      expect(JSON.parse(output.stdout).greeting.value).toBe('hello');
      expect(JSON.parse(output.stdout).workspace.value).toBe('app');
      // A second apply works on the state the first one wrote (in the workspace's own state path).
      const again = await tf().run(dir, ['apply', '-auto-approve', ...NO_INPUT]);
      expect(again.code, again.output).toBe(0);
      expect(again.stdout).toMatch(/No changes|0 added, 0 changed, 0 destroyed/);
    });

    it('terraform apply asks "Do you want to perform these actions in workspace" and applies on yes', async () => {
      await ctx.org('confirm-org');
      const dir = tf().workdir('confirm', { 'main.tf': cloudBlock('confirm-org', 'name = "app"') + config('"yes"') });
      expect((await tf().run(dir, ['init', ...NO_INPUT])).code).toBe(0);
      const run = tf().start(dir, ['apply', '-input=true', '-no-color'], { keepStdin: true });
      await run.waitFor('Do you want to perform these actions in workspace "app"?');
      run.write('yes\n');
      const res = await run.done;
      expect(res.code, res.output).toBe(0);
      expect(res.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    });

    it('a failing plan ends errored with the error in the log', async () => {
      await ctx.org('fail-org');
      const dir = tf().workdir('fail', {
        'main.tf':
          cloudBlock('fail-org', 'name = "app"') + config('"x"', 'output "bad" {\n  value = nope.missing\n}\n'),
      });
      expect((await tf().run(dir, ['init', ...NO_INPUT])).code).toBe(0);
      const plan = await tf().run(dir, ['plan', ...NO_INPUT]);
      expect(plan.code).not.toBe(0);
      expect(plan.output).toMatch(/Reference to undeclared resource/);
    });
  },
  180_000,
);
