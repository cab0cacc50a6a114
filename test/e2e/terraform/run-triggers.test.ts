import { expect, it } from 'vitest';
import { AUTO, HOST, cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Run triggers with the real Terraform CLI (issue 45, item 1): a `terraform apply` in the source
 * workspace (through its `cloud` block) queues a run in the workspace it triggers, which berth
 * serve executes (in its run sandbox) and, with the target's auto-apply-run-trigger on, applies:
 * the target reads the source's new output through `terraform_remote_state`.
 */

const source = (org: string, value: string) =>
  cloudBlock(org, 'name = "network"') +
  `
resource "terraform_data" "marker" {
  input = "${value}"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

const target = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
data "terraform_remote_state" "network" {
  backend = "remote"
  config = {
    hostname     = "${HOST}"
    organization = "${org}"
    workspaces = {
      name = "network"
    }
  }
}

resource "terraform_data" "copy" {
  input = data.terraform_remote_state.network.outputs.greeting
}

output "got" {
  value = terraform_data.copy.output
}
`;

const FINAL = ['applied', 'planned_and_finished', 'errored', 'canceled', 'discarded', 'force_canceled'];

describeTerraform(
  'run triggers with the Terraform CLI and berth serve',
  () => {
    // --hostname: the runs' own CLI configuration maps HOST to serve, for terraform_remote_state.
    const ctx = serveForTerraform({ serveArgs: ['--hostname', HOST] });
    const { tf, workspace, initialized, applied } = scenarioSteps(ctx);
    const org = 'triggers';

    it('an apply in the source queues a run in the target, which applies by itself with auto-apply-run-trigger', async () => {
      const { berth, dir: sourceDir } = await initialized(org, { 'main.tf': source(org, 'one') }, 'network');
      await applied(sourceDir);
      const network = await workspace(org, 'network');
      const shared = await ctx.api('PATCH', `/workspaces/${network.id}`, {
        data: { type: 'workspaces', attributes: { 'global-remote-state': true } },
      });
      expect(shared.status).toBe(200);

      // The target's configuration, uploaded and applied once by its own terraform apply.
      const targetDir = tf().workdir('app', { 'main.tf': target(org) });
      const init = await tf().run(targetDir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      await applied(targetDir);
      const update = await berth.remote('workspace', 'update', 'app', '--auto-apply-run-trigger');
      expect(update.code, update.stderr).toBe(0);
      const add = await berth.remote('workspace', 'triggers', 'add', 'app', 'network');
      expect(add.code, add.stderr).toBe(0);
      const app = await workspace(org, 'app');
      const runsOfApp = async () => (await ctx.api('GET', `/workspaces/${app.id}/runs`)).body.data as any[];
      const before = (await runsOfApp()).length;

      // The source changes its output: its apply queues the target's run.
      tf().workdir('network', { 'main.tf': source(org, 'two') });
      const sourceRun = runIdOf((await applied(sourceDir)).stdout);
      const [triggered] = await runsOfApp();
      expect((await runsOfApp()).length).toBe(before + 1);
      expect(triggered.attributes).toMatchObject({
        source: 'tfe-run-trigger',
        message: `Triggered by run ${sourceRun} of workspace ${org}/network`,
        'auto-apply': true,
      });
      const status = async () => (await ctx.api('GET', `/runs/${triggered.id}`)).body.data.attributes.status as string;
      await expect.poll(async () => FINAL.includes(await status()), { timeout: 180_000, interval: 250 }).toBe(true);
      expect(await status()).toBe('applied');

      // The target's state now holds the source's new value.
      const out = await tf().run(targetDir, ['output', '-json', '-no-color']);
      expect(out.code, out.output).toBe(0);
      expect(JSON.parse(out.stdout).got.value).toBe('two');
    });
  },
  300_000,
);
