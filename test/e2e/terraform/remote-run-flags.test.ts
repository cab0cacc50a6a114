import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';

/**
 * The Terraform CLI's remote workflow flags against berth serve (which executes runs by default), as
 * the CLI documents them for HCP Terraform: destroy, refresh-only, -target, -replace, -var and
 * -var-file, plan -detailed-exitcode, two applies on one workspace (the second queues), a lock
 * held with `berth workspace lock` and -lock-timeout, and Ctrl-C during an apply.
 */

/** Two independent resources and the run's variables as outputs. */
const twoResources = (org: string, workspace = 'app') =>
  cloudBlock(org, `name = "${workspace}"`) +
  `
variable "x" {
  type    = string
  default = "unset"
}

variable "y" {
  type    = string
  default = "unset"
}

resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

output "x" {
  value = var.x
}

output "y" {
  value = var.y
}
`;

/** One resource whose provisioner runs `command`. */
const provisioned = (org: string, command: string) =>
  cloudBlock(org, 'name = "app"') +
  `
resource "terraform_data" "slow" {
  input = "slow"

  provisioner "local-exec" {
    command = ${JSON.stringify(command)}
  }
}
`;

const runIdOf = (output: string) => /runs\/(run-[A-Za-z0-9]{16})/.exec(output)?.[1];

describeTerraform(
  'the Terraform CLI remote workflow flags on berth serve',
  () => {
    const ctx = serveForTerraform();
    const tf = () => ctx.sandbox();

    async function api(path: string, init: RequestInit = {}): Promise<any> {
      const server = ctx.server();
      const res = await fetch(`${server.url}/api/v2${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      });
      expect(res.status, path).toBeLessThan(300);
      return res.status === 204 ? null : res.json();
    }
    const run = async (id: string) => (await api(`/runs/${id}`)).data;
    const workspace = async (org: string, name = 'app') => (await api(`/organizations/${org}/workspaces/${name}`)).data;

    /** An organization and a working folder `name` with `files`, initialised. */
    async function initialized(org: string, files: Record<string, string>, name = org) {
      const berth = await ctx.org(org);
      const dir = tf().workdir(name, files);
      const init = await tf().run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      return { berth, dir };
    }

    async function applied(dir: string, extra: string[] = []) {
      const res = await tf().run(dir, ['apply', '-auto-approve', ...AUTO, ...extra]);
      expect(res.code, res.output).toBe(0);
      return res;
    }

    const stateList = async (dir: string) => {
      const res = await tf().run(dir, ['state', 'list']);
      expect(res.code, res.output).toBe(0);
      return res.stdout.split('\n').filter(Boolean);
    };

    it('terraform destroy -auto-approve runs a destroy run remotely and empties the state', async () => {
      const org = 'destroy-org';
      const { dir } = await initialized(org, { 'main.tf': twoResources(org) });
      await applied(dir);
      expect(await stateList(dir)).toEqual(['terraform_data.a', 'terraform_data.b']);

      const destroy = await tf().run(dir, ['destroy', '-auto-approve', ...AUTO]);
      expect(destroy.code, destroy.output).toBe(0);
      expect(destroy.stdout).toContain('Running apply in HCP Terraform');
      expect(destroy.stdout).toContain('# terraform_data.a will be destroyed');
      expect(destroy.stdout).toContain('Plan: 0 to add, 0 to change, 2 to destroy.');
      expect(destroy.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 2 destroyed.');
      const r = await run(runIdOf(destroy.stdout)!);
      expect(r.attributes).toMatchObject({ status: 'applied', 'is-destroy': true });
      expect(await stateList(dir)).toEqual([]);
      expect((await workspace(org)).attributes.locked).toBe(false);
    });

    it('terraform apply -refresh-only -auto-approve runs a refresh-only run that changes nothing', async () => {
      const org = 'refresh-org';
      const { dir } = await initialized(org, { 'main.tf': twoResources(org) });
      await applied(dir);
      const refresh = await applied(dir, ['-refresh-only']);
      expect(refresh.stdout).toContain('No changes. Your infrastructure still matches the configuration.');
      const r = await run(runIdOf(refresh.stdout)!);
      expect(r.attributes).toMatchObject({ 'refresh-only': true, 'is-destroy': false, 'has-changes': false });
      expect(await stateList(dir)).toEqual(['terraform_data.a', 'terraform_data.b']);
    });

    it('terraform apply -target=ADDR creates only that resource', async () => {
      const org = 'target-org';
      const { dir } = await initialized(org, { 'main.tf': twoResources(org) });
      const target = await applied(dir, ['-target=terraform_data.a']);
      expect(target.stdout).toContain('# terraform_data.a will be created');
      expect(target.stdout).not.toContain('terraform_data.b will be');
      expect(target.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
      expect(target.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const r = await run(runIdOf(target.stdout)!);
      expect(r.attributes['target-addrs']).toEqual(['terraform_data.a']);
      expect(await stateList(dir)).toEqual(['terraform_data.a']);
    });

    it('terraform apply -replace=ADDR replaces only that resource', async () => {
      const org = 'replace-org';
      const { dir } = await initialized(org, { 'main.tf': twoResources(org) });
      await applied(dir);
      const idsBefore = JSON.parse((await tf().run(dir, ['show', '-json'])).stdout).values.root_module.resources;
      const replace = await applied(dir, ['-replace=terraform_data.a']);
      expect(replace.stdout).toContain('# terraform_data.a will be replaced, as requested');
      expect(replace.stdout).not.toContain('terraform_data.b will be');
      expect(replace.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
      expect(replace.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 1 destroyed.');
      expect((await run(runIdOf(replace.stdout)!)).attributes['replace-addrs']).toEqual(['terraform_data.a']);
      const idsAfter = JSON.parse((await tf().run(dir, ['show', '-json'])).stdout).values.root_module.resources;
      const id = (rs: any[], name: string) => rs.find((x) => x.name === name).values.id;
      expect(id(idsAfter, 'a')).not.toBe(id(idsBefore, 'a'));
      expect(id(idsAfter, 'b')).toBe(id(idsBefore, 'b'));
    });

    it('-var and -var-file reach the remote plan as run variables', async () => {
      const org = 'vars-org';
      const { dir } = await initialized(org, {
        'main.tf': twoResources(org),
        'extra.tfvars': 'y = "from-file"\n',
      });
      const plan = await tf().run(dir, ['plan', ...AUTO, '-var', 'x=1', '-var-file=extra.tfvars']);
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toMatch(/\+ x = "1"/);
      expect(plan.stdout).toMatch(/\+ y = "from-file"/);
      const r = await run(runIdOf(plan.stdout)!);
      expect(r.attributes.variables).toEqual(
        expect.arrayContaining([
          { key: 'x', value: '"1"' },
          { key: 'y', value: '"from-file"' },
        ]),
      );
      // And through an apply, into the state's outputs.
      await applied(dir, ['-var', 'x=1', '-var-file=extra.tfvars']);
      const out = await tf().run(dir, ['output', '-json']);
      expect(JSON.parse(out.stdout)).toMatchObject({ x: { value: '1' }, y: { value: 'from-file' } });
    });

    it('terraform plan -detailed-exitcode exits 2 with changes and 0 without', async () => {
      const org = 'exitcode-org';
      const { dir } = await initialized(org, { 'main.tf': twoResources(org) });
      const changes = await tf().run(dir, ['plan', '-detailed-exitcode', ...AUTO]);
      expect(changes.code, changes.output).toBe(2);
      expect(changes.stdout).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
      await applied(dir);
      const none = await tf().run(dir, ['plan', '-detailed-exitcode', ...AUTO]);
      expect(none.code, none.output).toBe(0);
      expect(none.stdout).toContain('No changes.');
    });

    it('two applies started together on one workspace: the second waits for the first, both apply in order', async () => {
      const org = 'queue-org';
      // The first run's provisioner holds its apply until the test opens the gate: a file the test
      // puts into the run's own folder (the sandbox shows the run nothing else of this machine).
      const files = { 'main.tf': provisioned(org, 'while [ ! -e queue-gate ]; do sleep 0.1; done; echo gate-open') };
      const { dir: first } = await initialized(org, files, 'queue-first');
      const second = tf().workdir('queue-second', files);
      expect((await tf().run(second, ['init', ...AUTO])).code).toBe(0);

      const a = tf().start(first, ['apply', '-auto-approve', ...AUTO]);
      await a.waitFor("Provisioning with 'local-exec'...");
      const b = tf().start(second, ['apply', '-auto-approve', ...AUTO]);
      await b.waitFor('Waiting for 1 run(s) to finish before being queued...');
      // The one phase executing now is the first run's apply: its folder is serve's only one.
      const folders = readdirSync(tmpdir()).filter(
        (n) => /^berth-run-\d+-[^.]+$/.test(n) && n.startsWith(`berth-run-${ctx.server().child.pid}-`),
      );
      expect(folders).toHaveLength(1);
      writeFileSync(join(tmpdir(), folders[0], 'work', 'queue-gate'), '');
      const [ra, rb] = await Promise.all([a.done, b.done]);
      expect(ra.code, ra.output).toBe(0);
      expect(rb.code, rb.output).toBe(0);
      expect(ra.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      // The second planned against the first's state: nothing left to do.
      expect(rb.stdout).toContain('No changes.');
      const runA = await run(runIdOf(ra.stdout)!);
      const runB = await run(runIdOf(rb.stdout)!);
      expect(runA.attributes.status).toBe('applied');
      expect(runB.attributes.status).toBe('planned_and_finished');
      const at = (r: any, key: string) => Date.parse(r.attributes['status-timestamps'][key]);
      expect(at(runB, 'planning-at')).toBeGreaterThanOrEqual(at(runA, 'applied-at'));
      expect((await workspace(org)).attributes.locked).toBe(false);
    });

    it('a workspace locked with berth workspace lock: the run waits, and -lock-timeout cancels it', async () => {
      const org = 'locktimeout-org';
      const { berth, dir } = await initialized(org, { 'main.tf': twoResources(org) });
      expect((await berth.remote('workspace', 'lock', 'app', '--reason', 'maintenance')).code).toBe(0);

      const timedOut = await tf().run(dir, ['apply', '-auto-approve', '-lock-timeout=5s', ...AUTO]);
      // The CLI interrupts itself and cancels the run (its own behaviour, HCP alike): berth says
      // the pending run is cancelable when the CLI checks, before its interrupt.
      expect(timedOut.output).toContain('Waiting for the manually locked workspace to be unlocked...');
      expect(timedOut.output).toContain('Lock timeout exceeded, sending interrupt to cancel the remote operation.');
      const timedOutRun = runIdOf(timedOut.stdout)!;
      if (timedOut.output.includes('The remote operation was successfully cancelled.'))
        expect((await run(timedOutRun)).attributes.status).toBe('canceled');
      else {
        // Terraform's own race (internal/cloud's waitForRun): when its interrupt lands while it
        // reads the run, it forgets the run and cancels nothing. Seen on a loaded machine only; the
        // run is then still pending, as berth must leave it, and the test cancels it.
        expect((await run(timedOutRun)).attributes.status).toBe('pending');
        await api(`/runs/${timedOutRun}/actions/cancel`, { method: 'POST' });
        expect((await run(timedOutRun)).attributes.status).toBe('canceled');
      }
      const ws = await workspace(org);
      expect(ws.attributes.locked).toBe(true);
      expect(ws.relationships['locked-by'].data.type).toBe('users');

      // Released before the timeout: the waiting run goes on and applies.
      const waits = tf().start(dir, ['apply', '-auto-approve', '-lock-timeout=10m', ...AUTO]);
      // As HCP, the CLI names the lock: the pending run is the locked workspace's current run.
      await waits.waitFor('Waiting for the manually locked workspace to be unlocked...');
      expect((await berth.remote('workspace', 'unlock', 'app')).code).toBe(0);
      const res = await waits.done;
      expect(res.code, res.output).toBe(0);
      expect(res.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    });

    it('Ctrl-C during a slow apply cancels the remote run; the workspace is unlocked', async () => {
      const org = 'interrupt-org';
      const { dir } = await initialized(org, { 'main.tf': provisioned(org, 'sleep 30') });
      const apply = tf().start(dir, ['apply', '-auto-approve', ...AUTO]);
      await apply.waitFor('Executing: ["/bin/sh" "-c" "sleep 30"]');
      const id = runIdOf(apply.stdout)!;
      apply.child.kill('SIGINT');
      const res = await apply.done;
      // With -auto-approve the CLI cancels without asking (HCP's behaviour too), then exits.
      expect(res.output).toContain('The remote operation was successfully cancelled.');
      await expect.poll(async () => (await run(id)).attributes.status, { timeout: 30_000 }).toBe('canceled');
      const r = await run(id);
      expect(r.attributes['status-timestamps']['canceled-at']).toBeTruthy();
      expect((await workspace(org)).attributes.locked).toBe(false);
      // The interrupted provisioner leaves the created resource tainted; the state the canceled
      // apply wrote was recorded (as HCP uploads it), so the next apply would replace it.
      const state = JSON.parse((await tf().run(dir, ['show', '-json'])).stdout);
      expect(state.values.root_module.resources).toMatchObject([{ address: 'terraform_data.slow', tainted: true }]);
    });
  },
  180_000,
);
