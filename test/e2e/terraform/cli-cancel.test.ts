import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Day one with the real Terraform CLI and berth serve: a run canceled from berth's side while
 * `terraform apply` follows it. Applying (`berth run cancel`): terraform in the run is
 * interrupted, the run ends canceled, the CLI exits 1 with the interrupted apply's errors, the
 * workspace is free and the next apply goes on. Pending behind a lock (the API's cancel action):
 * the CLI stops waiting and exits 1. Planning, stuck on a server that never answers: a cancel asks
 * terraform to stop, which it cannot; the API's force-cancel ends the run at once (force_canceled, which
 * the CLI does not count as a failure, as with HCP Terraform), and the workspace is free.
 */

const provisioned = (org: string) =>
  cloudBlock(org, 'name = "app"') +
  `
variable "cmd" {
  type    = string
  default = "echo slow-start && sleep 60"
}

resource "terraform_data" "slow" {
  input = "x"

  provisioner "local-exec" {
    command = var.cmd
  }
}
`;

/** A data source that reads a state over HTTP from `url`, which never answers. */
const stuck = (org: string, url: string) =>
  cloudBlock(org, 'name = "app"') +
  `
data "terraform_remote_state" "stuck" {
  backend = "http"
  config = {
    address = "${url}"
  }
}

output "o" {
  value = data.terraform_remote_state.stuck.outputs
}
`;

describeTerraform(
  'runs canceled from berth while the Terraform CLI follows them',
  () => {
    const ctx = serveForTerraform();
    const { tf, run, locked, initialized, applied } = scenarioSteps(ctx);

    // A TCP server that accepts connections and never answers them.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    let silentUrl = '';
    beforeAll(async () => {
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const address = silent.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      silentUrl = `http://127.0.0.1:${address.port}/state`;
    });
    afterAll(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('berth run cancel while the apply runs: the run ends canceled, the CLI exits 1, the next apply works', async () => {
      const org = 'cancel-apply';
      const { berth, dir } = await initialized(org, { 'main.tf': provisioned(org) });
      const apply = tf().start(dir, ['apply', '-auto-approve', ...AUTO]);
      await apply.waitFor('(local-exec): slow-start');
      const id = runIdOf(apply.stdout);
      const canceled = await berth.remote('run', 'cancel', id);
      expect(canceled.code, canceled.stderr).toBe(0);
      const res = await apply.done;
      expect(res.code, res.output).toBe(1);
      expect(flat(res.output)).toContain('Error: execution halted');
      const r = await run(id);
      expect(r.attributes.status).toBe('canceled');
      expect(r.attributes['status-timestamps']['canceled-at']).toBeTruthy();
      expect(await locked(org, 'app')).toBe(false);

      // The interrupted resource is tainted in the state the apply left; the next apply replaces it.
      const next = await applied(dir, ['-var', 'cmd=echo quick']);
      expect(next.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 1 destroyed.');
    });

    it('the API cancel action on a run pending behind a lock: the CLI stops waiting and exits 1', async () => {
      const org = 'cancel-pending';
      const { berth, dir } = await initialized(org, { 'main.tf': provisioned(org) });
      expect((await berth.remote('workspace', 'lock', 'app', '--reason', 'maintenance')).code).toBe(0);
      const apply = tf().start(dir, ['apply', '-auto-approve', ...AUTO, '-var', 'cmd=echo quick']);
      // The pending run is the locked workspace's current run: the CLI says what it waits for.
      await apply.waitFor('Waiting for the manually locked workspace to be unlocked...');
      const id = runIdOf(apply.stdout);
      expect((await run(id)).attributes.status).toBe('pending');
      const res = await ctx.api('POST', `/runs/${id}/actions/cancel`, { comment: 'not now' });
      expect(res.status).toBe(202);
      const done = await apply.done;
      expect(done.code, done.output).toBe(1);
      expect((await run(id)).attributes.status).toBe('canceled');
      expect((await berth.remote('workspace', 'unlock', 'app')).code).toBe(0);
      expect(await locked(org, 'app')).toBe(false);
      const next = await applied(dir, ['-var', 'cmd=echo quick']);
      expect(next.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    });

    it('a plan stuck on a silent server: cancel, then force-cancel ends the run at once; the workspace is free', async () => {
      const org = 'cancel-force';
      const { dir } = await initialized(org, { 'main.tf': stuck(org, silentUrl) });
      const apply = tf().start(dir, ['apply', '-auto-approve', ...AUTO]);
      await apply.waitFor('data.terraform_remote_state.stuck: Reading...');
      const id = runIdOf(apply.stdout);
      // Back to back (terraform gets a grace period between the cancel's interrupt and a kill).
      expect((await ctx.api('POST', `/runs/${id}/actions/cancel`)).status).toBe(202);
      const cancelable = await run(id);
      expect(cancelable.attributes.status).toBe('planning');
      expect(cancelable.attributes.actions['is-force-cancelable']).toBe(true);
      expect((await ctx.api('POST', `/runs/${id}/actions/force-cancel`)).status).toBe(202);
      const res = await apply.done;
      expect(res.output).toContain('The run was force-canceled.');
      const r = await run(id);
      expect(r.attributes.status).toBe('force_canceled');
      expect(r.attributes['status-timestamps']['force-canceled-at']).toBeTruthy();
      expect(await locked(org, 'app')).toBe(false);
    });
  },
  240_000,
);
