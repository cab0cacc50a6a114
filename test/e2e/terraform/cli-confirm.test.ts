import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AUTO, HOST, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { runIdOf, scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Day one with the real Terraform CLI and berth serve (runs execute on berth, the `cloud` block's
 * remote execution): the apply confirmation. Answered "no" (the CLI discards the run), impossible
 * under -input=false (the CLI stops with "Please handle run confirmation in the UI": the run stays
 * planned, awaiting confirmation, and holds the workspace until someone confirms or discards it,
 * as in HCP Terraform), given from berth while the CLI asks (the CLI follows), and a workspace with
 * auto-apply: the `remote` backend applies without asking; the `cloud` block creates its run with
 * auto-apply false unless -auto-approve, so the run awaits confirmation and the CLI asks. And
 * `plan -out`, which with a cloud block saves a bookmark of the run (Terraform 1.6+): a saved-plan
 * run, planned_and_saved without holding the workspace, that `apply FILE` confirms
 * (cli-saved-plans.test.ts: what other runs do meanwhile).
 */

const config = (input: string) => `
resource "terraform_data" "a" {
  input = ${JSON.stringify(input)}
}

output "a" {
  value = terraform_data.a.output
}
`;

const remoteBackend = (org: string, workspace: string) => `terraform {
  backend "remote" {
    hostname     = "${HOST}"
    organization = "${org}"
    workspaces {
      name = "${workspace}"
    }
  }
}
`;

describeTerraform(
  'terraform apply confirmation against berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, run, locked, initialized, applied } = scenarioSteps(ctx);

    /** Starts `terraform args` and waits for the confirmation prompt; returns the run and its id. */
    async function prompting(dir: string, args: string[]) {
      const cli = tf().start(dir, [...args, '-no-color'], { keepStdin: true });
      await cli.waitFor('Enter a value:');
      return { cli, id: runIdOf(cli.stdout) };
    }

    it('apply and destroy answered "no": the run is discarded, the workspace unlocked, the next apply applies', async () => {
      const org = 'answer-no';
      const { berth, dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });

      const { cli, id } = await prompting(dir, ['apply']);
      expect(cli.stdout).toContain('Do you want to perform these actions in workspace "app"?');
      expect((await run(id)).attributes.status).toBe('planned');
      cli.write('no\n');
      const res = await cli.done;
      expect(res.code, res.output).toBe(1);
      expect(flat(res.stderr)).toContain('Error: Apply discarded.');
      const discarded = await run(id);
      expect(discarded.attributes.status).toBe('discarded');
      expect(discarded.attributes['status-timestamps']['discarded-at']).toBeTruthy();
      expect(discarded.attributes.actions).toMatchObject({ 'is-confirmable': false, 'is-discardable': false });
      expect(await locked(org, 'app')).toBe(false);
      expect(await berth.json('state', 'list', 'app')).toEqual([]);

      const next = await applied(dir);
      expect(next.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect((await run(runIdOf(next.stdout))).attributes.status).toBe('applied');

      // An apply with nothing to do ends at its plan, and leaves the workspace free.
      const same = await applied(dir);
      expect(same.stdout).toContain('No changes. Your infrastructure matches the configuration.');
      expect((await run(runIdOf(same.stdout))).attributes.status).toBe('planned_and_finished');
      expect(await locked(org, 'app')).toBe(false);

      const destroy = await prompting(dir, ['destroy']);
      expect(destroy.cli.stdout).toContain('Do you really want to destroy all resources in workspace "app"?');
      destroy.cli.write('no\n');
      const destroyed = await destroy.cli.done;
      expect(destroyed.code, destroyed.output).toBe(1);
      expect(flat(destroyed.stderr)).toContain('Error: Destroy discarded.');
      expect((await run(destroy.id)).attributes).toMatchObject({ status: 'discarded', 'is-destroy': true });
      expect(await locked(org, 'app')).toBe(false);
      const list = await tf().run(dir, ['state', 'list']);
      expect(list.stdout.trim()).toBe('terraform_data.a');
    });

    it('apply -input=false without -auto-approve: the run awaits confirmation in berth; berth confirms it or discards it', async () => {
      const org = 'no-input';
      const { berth, dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });

      const first = await tf().run(dir, ['apply', ...AUTO]);
      expect(first.code, first.output).toBe(1);
      expect(flat(first.stderr)).toContain(
        'Cannot confirm apply due to -input=false. Please handle run confirmation in the UI.',
      );
      const id = runIdOf(first.stdout);
      // As in HCP Terraform, the run is left for someone to confirm: it holds the workspace.
      const planned = await run(id);
      expect(planned.attributes.status).toBe('planned');
      expect(planned.attributes.actions).toMatchObject({ 'is-confirmable': true, 'is-discardable': true });
      const ws = (await ctx.api('GET', `/organizations/${org}/workspaces/app`)).body.data;
      expect(ws.relationships['current-run'].data.id).toBe(id);
      expect(ws.attributes.locked).toBe(true);

      const confirmed = await berth.remote('run', 'apply', id);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      await expect.poll(async () => (await run(id)).attributes.status, { timeout: 60_000 }).toBe('applied');
      expect(await locked(org, 'app')).toBe(false);
      const outputs = await tf().run(dir, ['output', '-raw', 'a']);
      expect(outputs.stdout).toBe('one');

      // Again, with a change; a second apply queues behind the run awaiting confirmation and goes
      // on once it is discarded.
      tf().workdir(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('two') });
      const again = await tf().run(dir, ['apply', ...AUTO]);
      expect(again.code, again.output).toBe(1);
      const waiting = runIdOf(again.stdout);
      const behind = tf().start(dir, ['apply', '-auto-approve', ...AUTO]);
      await behind.waitFor('Waiting for 1 run(s) to finish before being queued...');
      const discard = await ctx.api('POST', `/runs/${waiting}/actions/discard`, { comment: 'not this one' });
      expect(discard.status).toBe(202);
      const res = await behind.done;
      expect(res.code, res.output).toBe(0);
      expect(res.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
      expect((await run(waiting)).attributes.status).toBe('discarded');
      expect(await locked(org, 'app')).toBe(false);
    });

    it('the run confirmed or discarded from berth while the CLI asks: the CLI applies, or says the apply was discarded', async () => {
      const org = 'from-berth';
      const { berth, dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });

      const asked = await prompting(dir, ['apply']);
      const confirmed = await berth.remote('run', 'apply', asked.id);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      const res = await asked.cli.done;
      expect(res.code, res.output).toBe(0);
      expect(res.stdout).toContain('approved using the UI or API');
      expect(res.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect((await run(asked.id)).attributes.status).toBe('applied');

      tf().workdir(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('two') });
      const again = await prompting(dir, ['apply']);
      const discarded = await berth.remote('run', 'discard', again.id);
      expect(discarded.code, discarded.stderr).toBe(0);
      const res2 = await again.cli.done;
      expect(res2.code, res2.output).toBe(1);
      expect(res2.stdout).toContain('discarded using the UI or API');
      expect(flat(res2.stderr)).toContain('Error: Apply discarded.');
      expect(await locked(org, 'app')).toBe(false);
    });

    it('plan -out saves a cloud plan bookmark; apply FILE applies that run, once; a discarded one is refused', async () => {
      const org = 'saved-plan';
      const { berth, dir } = await initialized(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('one') });
      const plan = await tf().run(dir, ['plan', '-out=one.tfplan', ...AUTO]);
      expect(plan.code, plan.output).toBe(0);
      const id = runIdOf(plan.stdout);
      // Terraform 1.6+ with a cloud block: the file is a bookmark of the run on berth.
      const bookmark = JSON.parse(readFileSync(join(dir, 'one.tfplan'), 'utf8'));
      expect(bookmark).toMatchObject({ run_id: id, hostname: HOST });
      // A saved-plan run: planned_and_saved, confirmable, holding neither the workspace nor its queue.
      const saved = await run(id);
      expect(saved.attributes).toMatchObject({ status: 'planned_and_saved', 'save-plan': true, 'has-changes': true });
      expect(saved.attributes.actions['is-confirmable']).toBe(true);
      expect(await locked(org, 'app')).toBe(false);

      const apply = await tf().run(dir, ['apply', ...AUTO, 'one.tfplan']);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect((await run(id)).attributes.status).toBe('applied');
      expect(await berth.json('state', 'list', 'app')).toHaveLength(1);
      expect(await locked(org, 'app')).toBe(false);
      const again = await tf().run(dir, ['apply', ...AUTO, 'one.tfplan']);
      expect(again.code).toBe(1);
      expect(flat(again.stderr)).toContain('Saved plan is already applied');

      tf().workdir(org, { 'main.tf': cloudBlock(org, 'name = "app"') + config('two') });
      const second = await tf().run(dir, ['plan', '-out=two.tfplan', ...AUTO]);
      expect(second.code, second.output).toBe(0);
      expect((await run(runIdOf(second.stdout))).attributes.status).toBe('planned_and_saved');
      const discard = await berth.remote('run', 'discard', runIdOf(second.stdout));
      expect(discard.code, discard.stderr).toBe(0);
      const refused = await tf().run(dir, ['apply', ...AUTO, 'two.tfplan']);
      expect(refused.code).toBe(1);
      expect(flat(refused.stderr)).toContain('Saved plan is discarded');
      expect(await locked(org, 'app')).toBe(false);
      expect((await tf().run(dir, ['output', '-raw', 'a'])).stdout).toBe('one');
    });

    it('a workspace with auto-apply: the remote backend applies without asking; the cloud block asks unless -auto-approve', async () => {
      const org = 'auto-apply';
      const berth = await ctx.org(org);
      expect((await berth.remote('workspace', 'create', 'legacy', '--auto-apply')).code).toBe(0);
      expect((await berth.remote('workspace', 'create', 'cloud', '--auto-apply')).code).toBe(0);

      const legacy = tf().workdir('auto-apply-legacy', { 'main.tf': remoteBackend(org, 'legacy') + config('one') });
      expect((await tf().run(legacy, ['init', ...AUTO])).code).toBe(0);
      // stdin is closed: a prompt would fail the apply.
      const res = await tf().run(legacy, ['apply', '-no-color'], { stdin: '' });
      expect(res.code, res.output).toBe(0);
      expect(res.stdout).not.toContain('Enter a value');
      expect(res.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const applied = await run(runIdOf(res.stdout));
      expect(applied.attributes).toMatchObject({ status: 'applied', 'auto-apply': true });

      // The cloud block sends auto-apply: false with a run of `terraform apply` (true with
      // -auto-approve); a run's own auto-apply wins over the workspace's setting.
      const cloud = tf().workdir('auto-apply-cloud', { 'main.tf': cloudBlock(org, 'name = "cloud"') + config('one') });
      expect((await tf().run(cloud, ['init', ...AUTO])).code).toBe(0);
      const asked = await prompting(cloud, ['apply']);
      expect((await run(asked.id)).attributes).toMatchObject({ status: 'planned', 'auto-apply': false });
      asked.cli.write('yes\n');
      const yes = await asked.cli.done;
      expect(yes.code, yes.output).toBe(0);
      expect(yes.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      expect(await locked(org, 'cloud')).toBe(false);
    });
  },
  240_000,
);
