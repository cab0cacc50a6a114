import { expect, it } from 'vitest';
import {
  AUTO,
  cloudBlock,
  describeTerraform,
  flat,
  localByDefault,
  serveForTerraform,
} from '../../helpers/terraform.js';

/**
 * Workspace locks as the real Terraform CLI meets them. In a workspace that runs remotely (the
 * default: serve executes runs), as in HCP Terraform ("a lock prevents HCP Terraform from
 * performing any plans or applies in the workspace (...) New runs remain in the pending state
 * until the workspace is unlocked"): a speculative `terraform plan` and `terraform apply` make
 * runs that wait pending, each the workspace's current run, so that the CLI says "Waiting for the
 * manually locked workspace to be unlocked..." (it says so only when the current run of a locked
 * workspace is pending); once the lock is released the plan goes on, the apply applies. In local execution mode, where
 * the CLI takes the state lock itself: a lock taken with `berth workspace lock` refuses plan and
 * apply; an apply with -lock-timeout waits for it and goes on once it is released; a lock left by
 * a crashed run goes with `terraform force-unlock`. The `cloud` block's lock id is ORG/WORKSPACE.
 */

/** One terraform_data whose local-exec hangs (a command that never ends) when `hang` is true. */
const config = (org: string, workspace: string) =>
  cloudBlock(org, `name = "${workspace}"`) +
  `
variable "hang" {
  type    = bool
  default = false
}

variable "greeting" {
  type    = string
  default = "hello"
}

resource "terraform_data" "marker" {
  input = var.greeting

  provisioner "local-exec" {
    command = var.hang ? "echo hanging-now && tail -f /dev/null" : "echo provisioned"
  }
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

describeTerraform('terraform and workspace locks in berth', () => {
  const ctx = serveForTerraform();
  const tf = () => ctx.sandbox();

  /** ORG with WORKSPACE initialized by the cloud block; in local execution mode unless `remote`. */
  async function initialized(org: string, workspace: string, remote = false) {
    const berth = await ctx.org(org);
    if (!remote) await localByDefault(berth, org);
    const dir = tf().workdir(org, { 'main.tf': config(org, workspace) });
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    return { berth, dir };
  }

  it('remote execution: a lock held by a person holds a speculative plan and an apply pending ("Waiting for the manually locked workspace to be unlocked..."); each goes on once unlocked', async () => {
    const { berth, dir } = await initialized('remote-locked', 'app', true);
    const locked = await berth.remote('workspace', 'lock', 'app', '--reason', 'maintenance window');
    expect(locked.code, locked.stderr).toBe(0);

    const plan = tf().start(dir, ['plan', ...AUTO]);
    const [, planId] = await plan.waitFor(/\/runs\/(run-[A-Za-z0-9]{16})/);
    await plan.waitFor('Waiting for the manually locked workspace to be unlocked...');
    // What the CLI read to say so: the plan-only run pending, the locked workspace's current run.
    expect((await ctx.api('GET', `/runs/${planId}`)).body.data.attributes).toMatchObject({
      status: 'pending',
      'plan-only': true,
    });
    const held = await berth.json('workspace', 'show', 'app');
    expect(held.relationships['current-run'].data.id).toBe(planId);
    expect(held.relationships['latest-run'].data.id).toBe(planId);
    expect((await berth.remote('workspace', 'unlock', 'app')).code).toBe(0);
    const planned = await plan.done;
    expect(planned.code, planned.output).toBe(0);
    expect(planned.stdout).toContain('Running plan in HCP Terraform.');
    expect(planned.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect((await ctx.api('GET', `/runs/${planId}`)).body.data.attributes.status).toBe('planned_and_finished');

    expect((await berth.remote('workspace', 'lock', 'app', '--reason', 'maintenance window')).code).toBe(0);
    const apply = tf().start(dir, ['apply', '-auto-approve', ...AUTO]);
    const [, runId] = await apply.waitFor(/\/runs\/(run-[A-Za-z0-9]{16})/);
    await apply.waitFor('Waiting for the manually locked workspace to be unlocked...');
    // The run exists and waits: pending, the workspace still locked by the person, nothing written.
    const run = await ctx.api('GET', `/runs/${runId}`);
    expect(run.body.data.attributes.status).toBe('pending');
    const ws = await berth.json('workspace', 'show', 'app');
    expect(ws.attributes).toMatchObject({ locked: true, 'locked-reason': 'maintenance window' });
    expect(await berth.json('state', 'list', 'app')).toEqual([]);

    expect((await berth.remote('workspace', 'unlock', 'app')).code).toBe(0);
    const done = await apply.done;
    expect(done.code, done.output).toBe(0);
    expect(done.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect((await ctx.api('GET', `/runs/${runId}`)).body.data.attributes.status).toBe('applied');
    expect(await berth.json('state', 'list', 'app')).toHaveLength(1);
    expect((await berth.json('workspace', 'show', 'app')).attributes.locked).toBe(false);
  });

  it('local execution: a lock held with berth workspace lock refuses terraform plan and apply', async () => {
    const { berth, dir } = await initialized('locked', 'app');
    const locked = await berth.remote('workspace', 'lock', 'app', '--reason', 'maintenance window');
    expect(locked.code, locked.stderr).toBe(0);

    for (const command of [
      ['plan', ...AUTO],
      ['apply', '-auto-approve', ...AUTO],
    ]) {
      const refused = await tf().run(dir, command);
      expect(refused.code, refused.output).toBe(1);
      const message = flat(refused.stderr);
      expect(message).toContain('Error acquiring the state lock');
      expect(message).toContain('workspace already locked (lock ID: "locked/app")');
    }
    // Nothing was written, and berth's lock is the one it was.
    expect(await berth.json('state', 'list', 'app')).toEqual([]);
    const ws = await berth.json('workspace', 'show', 'app');
    expect(ws.attributes).toMatchObject({ locked: true, 'locked-reason': 'maintenance window' });

    expect((await berth.remote('workspace', 'unlock', 'app')).code).toBe(0);
    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).toContain('Apply complete!');
  });

  it('local execution: terraform apply -lock-timeout waits for a lock held in berth and applies once it is released', async () => {
    const { berth, dir } = await initialized('waiting', 'app');
    expect((await berth.remote('workspace', 'lock', 'app')).code).toBe(0);

    const apply = tf().start(dir, ['apply', '-auto-approve', '-lock-timeout=60s', ...AUTO]);
    // The CLI says so when its first attempts did not get the lock: it is waiting now.
    await apply.waitFor('Acquiring state lock. This may take a few moments...');
    // Still waiting: it did not give up, nor write anything.
    expect(apply.output).not.toContain('Error acquiring the state lock');
    expect(await berth.json('state', 'list', 'app')).toEqual([]);

    const unlocked = await berth.remote('workspace', 'unlock', 'app');
    expect(unlocked.code, unlocked.stderr).toBe(0);
    const done = await apply.done;
    expect(done.code, done.output).toBe(0);
    expect(done.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(await berth.json('state', 'list', 'app')).toHaveLength(1);
    // terraform released its own lock at the end.
    expect((await berth.json('workspace', 'show', 'app')).attributes.locked).toBe(false);
  });

  it('local execution: terraform force-unlock -force frees a workspace locked by a crashed run', async () => {
    const { berth, dir } = await initialized('crashed', 'app');
    const hanging = tf().start(dir, ['apply', '-auto-approve', '-var', 'hang=true', ...AUTO]);
    // The apply holds the lock while its provisioner runs; then it dies without unlocking.
    // (Its own output line, not the "Executing:" line that shows the command.)
    await hanging.waitFor(/\(local-exec\): hanging-now$/m);
    expect((await berth.json('workspace', 'show', 'app')).attributes.locked).toBe(true);
    const killed = await hanging.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect((await berth.json('workspace', 'show', 'app')).attributes.locked).toBe(true);

    // The next run is refused, and names the lock id to force.
    const refused = await tf().run(dir, ['plan', ...AUTO]);
    expect(refused.code, refused.output).toBe(1);
    const lockId = /workspace already locked \(lock ID: "([^"]+)"\)/.exec(flat(refused.stderr))?.[1];
    expect(lockId).toBe('crashed/app');

    const unlocked = await tf().run(dir, ['force-unlock', '-force', '-no-color', lockId!]);
    expect(unlocked.code, unlocked.output).toBe(0);
    expect(unlocked.stdout).toContain('Terraform state has been successfully unlocked!');
    expect((await berth.json('workspace', 'show', 'app')).attributes.locked).toBe(false);

    // A wrong id is refused by the CLI before it asks berth anything.
    const wrong = await tf().run(dir, ['force-unlock', '-force', '-no-color', 'crashed/other']);
    expect(wrong.code).toBe(1);
    expect(flat(wrong.stderr)).toContain('does not match existing lock ID "crashed/app"');

    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).toContain('Apply complete!');
  });
});
