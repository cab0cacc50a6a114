import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';

/**
 * A state made elsewhere moved into berth by the real Terraform CLI: a local state migrated by
 * `terraform init` once a `cloud` block is added (answering its prompt on stdin), and a state
 * file pushed with `terraform state push -force`.
 */

const resources = (greeting: string) => `
resource "terraform_data" "marker" {
  input = "${greeting}"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

describeTerraform('terraform moves existing states into berth', () => {
  const ctx = serveForTerraform();
  const tf = () => ctx.sandbox();

  it('init migrates a local state into a cloud block workspace when told "yes"', async () => {
    const berth = await ctx.org('migrate');
    // First, no backend: the state is terraform.tfstate in the working folder.
    const dir = tf().workdir('migrate', { 'main.tf': resources('from local') });
    expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
    const local = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(local.code, local.output).toBe(0);
    const localState = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8'));
    expect(localState.resources).toHaveLength(1);

    // Then the cloud block: init asks whether to copy the existing state, and is told yes.
    tf().workdir('migrate', { 'main.tf': cloudBlock('migrate', 'name = "moved"') + resources('from local') });
    const init = await tf().run(dir, ['init', '-no-color'], { stdin: 'yes\n' });
    expect(init.code, init.output).toBe(0);
    expect(flat(init.stdout)).toContain('Should Terraform migrate your existing state?');
    expect(init.stdout).toContain('HCP Terraform has been successfully initialized!');

    // The state is in berth now: the same resource, the same outputs. (Not the same lineage: the
    // CLI's cloud state manager, finding no state in the workspace, starts a new one.)
    const versions = await berth.json('state', 'list', 'moved');
    expect(versions).toHaveLength(1);
    const pulled = await berth.remote('state', 'pull', 'moved');
    expect(pulled.code, pulled.stderr).toBe(0);
    const remote = JSON.parse(pulled.stdout);
    expect(remote.resources).toEqual(localState.resources);
    const outputs = await berth.json('state', 'outputs', 'moved');
    expect(outputs.map((o: any) => [o.attributes.name, o.attributes.value])).toEqual([['greeting', 'from local']]);

    // And terraform works from it: nothing to change.
    const plan = await tf().run(dir, ['plan', '-detailed-exitcode', ...AUTO]);
    expect(plan.code, plan.output).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('terraform state push -force puts a state file into a new workspace', async () => {
    const berth = await ctx.org('pushed');
    // A state file made by a local apply elsewhere.
    const elsewhere = tf().workdir('pushed-source', { 'main.tf': resources('pushed') });
    expect((await tf().run(elsewhere, ['init', ...AUTO])).code).toBe(0);
    expect((await tf().run(elsewhere, ['apply', '-auto-approve', ...AUTO])).code).toBe(0);
    const file = join(tf().dir, 'pushed.tfstate');
    writeFileSync(file, readFileSync(join(elsewhere, 'terraform.tfstate')));
    const pushedState = JSON.parse(readFileSync(file, 'utf8'));

    const dir = tf().workdir('pushed', { 'main.tf': cloudBlock('pushed', 'name = "target"') + resources('pushed') });
    expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
    expect(await berth.json('state', 'list', 'target')).toEqual([]);
    const push = await tf().run(dir, ['state', 'push', '-force', file]);
    expect(push.code, push.output).toBe(0);

    const versions = await berth.json('state', 'list', 'target');
    expect(versions).toHaveLength(1);
    const pulled = JSON.parse((await berth.remote('state', 'pull', 'target')).stdout);
    expect(pulled.resources).toEqual(pushedState.resources);
    const outputs = await berth.json('state', 'outputs', 'target');
    expect(outputs.map((o: any) => [o.attributes.name, o.attributes.value])).toEqual([['greeting', 'pushed']]);
    expect((await berth.json('workspace', 'show', 'target')).attributes.locked).toBe(false);
    // terraform reads it back: the resource is there, and nothing to change.
    expect((await tf().run(dir, ['state', 'list'])).stdout.trim()).toBe('terraform_data.marker');
    const plan = await tf().run(dir, ['plan', '-detailed-exitcode', ...AUTO]);
    expect(plan.code, plan.output).toBe(0);
  });

  it('terraform state push -force of an unrelated state over one in berth is refused, as HCP Terraform refuses it', async () => {
    const berth = await ctx.org('unrelated');
    const dir = tf().workdir('unrelated', { 'main.tf': cloudBlock('unrelated', 'name = "target"') + resources('own') });
    expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
    expect((await tf().run(dir, ['apply', '-auto-approve', ...AUTO])).code).toBe(0);
    const before = JSON.parse((await berth.remote('state', 'pull', 'target')).stdout);

    // A state of another lineage.
    const elsewhere = tf().workdir('unrelated-source', { 'main.tf': resources('other') });
    expect((await tf().run(elsewhere, ['init', ...AUTO])).code).toBe(0);
    expect((await tf().run(elsewhere, ['apply', '-auto-approve', ...AUTO])).code).toBe(0);
    const file = join(elsewhere, 'terraform.tfstate');

    // Without -force the CLI refuses by itself.
    const refused = await tf().run(dir, ['state', 'push', file]);
    expect(refused.code).toBe(1);
    expect(flat(refused.stderr)).toContain('cannot import state with lineage');
    // With -force, Terraform 1.11's cloud backend still sends force: false (state push writes the
    // state again after importing it, which clears the flag), so the create carries another
    // lineage unforced: berth refuses it with a 409 Conflict, as HCP Terraform does, which the CLI
    // prints as go-tfe words it (title, then detail), and keeps the workspace locked after a
    // failed upload.
    const forced = await tf().run(dir, ['state', 'push', '-force', file]);
    expect(forced.code, forced.output).toBe(1);
    expect(flat(forced.stderr)).toContain(
      `Failed to persist state: error uploading state: conflict Lineage does not match the current state's lineage ${before.lineage} (set force to replace it)`,
    );
    expect(await berth.json('state', 'list', 'target')).toHaveLength(1);
    expect(JSON.parse((await berth.remote('state', 'pull', 'target')).stdout)).toEqual(before);
    expect((await berth.json('workspace', 'show', 'target')).attributes.locked).toBe(true);
    const unlocked = await tf().run(dir, ['force-unlock', '-force', '-no-color', 'unrelated/target']);
    expect(unlocked.code, unlocked.output).toBe(0);
  });
});
