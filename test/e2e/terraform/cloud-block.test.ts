import { expect, it } from 'vitest';
import {
  AUTO,
  cloudBlock,
  describeTerraform,
  flat,
  serveForTerraform,
  TERRAFORM,
  localByDefault,
} from '../../helpers/terraform.js';

/**
 * The real Terraform CLI's `cloud` block against a real `berth serve`, which executes runs (it
 * finds terraform on the PATH): the day-one case (init and apply on a fresh organization with
 * default settings run on berth), a workspace by name, by flat tags, by key-value tags, a
 * workspace in local execution mode, and a serve started with --no-execute-runs (the CLI runs
 * locally). Each scenario has its own organization, made with no options.
 */

/** A configuration without providers to download: one terraform_data, its output, and `extra`. */
const config = (input: string, extra = '') => `
resource "terraform_data" "marker" {
  input = ${input}
}

output "greeting" {
  value = terraform_data.marker.output
}
${extra}`;

describeTerraform('terraform with a cloud block against berth serve', () => {
  const ctx = serveForTerraform();
  const tf = () => ctx.sandbox();

  it('day one: init and apply on a fresh organization with default settings run the apply on berth', async () => {
    const berth = await ctx.org('day-one');
    const dir = tf().workdir('day-one', {
      'main.tf': cloudBlock('day-one', 'name = "first"') + config('"hello"'),
    });
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain('HCP Terraform has been successfully initialized!');
    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    // The CLI ran it remotely: it uploaded the configuration and streamed berth's run.
    expect(apply.stdout).toContain('Running apply in HCP Terraform. Output will stream here.');
    expect(apply.stdout).toContain('Waiting for the plan to start...');
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const runId = /\/app\/day-one\/first\/runs\/(run-[A-Za-z0-9]{16})/.exec(apply.stdout)?.[1];
    expect(runId, apply.stdout).toBeDefined();

    // berth's side: the workspace's one run is that run, applied; the state version it wrote
    // says so; its outputs are readable.
    const ws = await berth.json('workspace', 'show', 'first');
    const runs = await ctx.api('GET', `/workspaces/${ws.id}/runs`);
    expect(runs.body.data.map((r: any) => [r.id, r.attributes.status])).toEqual([[runId, 'applied']]);
    expect(runs.body.data[0].relationships['configuration-version'].data.id).toMatch(/^cv-/);
    const current = await ctx.api('GET', `/workspaces/${ws.id}/current-state-version`);
    expect(current.status).toBe(200);
    expect(current.body.data.relationships.run.data).toEqual({ type: 'runs', id: runId });
    const outputs = await berth.json('state', 'outputs', 'first');
    expect(outputs).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ name: 'greeting' }) })]);
    expect(outputs[0].attributes.value).toBe('hello');
    // The workspace took the CLI's version, which is the executor's: the run could execute.
    expect(ws.attributes['terraform-version']).toBe(TERRAFORM!.version);
    expect(ws.attributes.locked).toBe(false);
  });

  it('a workspace in execution mode local: plan and apply run on the CLI side; berth keeps the state, no run', async () => {
    const berth = await ctx.org('local-mode');
    expect((await berth.remote('workspace', 'create', 'here', '--execution-mode', 'local')).code).toBe(0);
    const dir = tf().workdir('local-mode', {
      'main.tf': cloudBlock('local-mode', 'name = "here"') + config('"local"'),
    });
    expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).not.toContain('Running apply in HCP Terraform');
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const ws = await berth.json('workspace', 'show', 'here');
    expect((await ctx.api('GET', `/workspaces/${ws.id}/runs`)).body.data).toEqual([]);
    const current = await ctx.api('GET', `/workspaces/${ws.id}/current-state-version`);
    expect(current.body.data.relationships.run.data).toBeNull();
    expect((await berth.json('state', 'outputs', 'here'))[0].attributes.value).toBe('local');
  });

  it('by name: init, apply twice, terraform output; berth holds both state versions and the outputs', async () => {
    const berth = await ctx.org('by-name');
    const files = (greeting: string) => ({
      'main.tf':
        cloudBlock('by-name', 'name = "app"') +
        config(`"${greeting}"`, 'output "shout" {\n  value = upper(terraform_data.marker.output)\n}\n'),
    });
    const dir = tf().workdir('by-name', files('hello'));
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    // init created the workspace, named as configured.
    const ws = await berth.json('workspace', 'show', 'app');
    expect(ws.attributes.name).toBe('app');

    const first = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(first.code, first.output).toBe(0);
    expect(first.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(first.stdout).toMatch(/greeting = "hello"/);

    tf().workdir('by-name', files('hello again'));
    const second = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(second.code, second.output).toBe(0);
    expect(second.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect(second.stdout).toMatch(/greeting = "hello again"/);

    const output = await tf().run(dir, ['output', '-json', '-no-color']);
    expect(output.code, output.output).toBe(0);
    expect(JSON.parse(output.stdout)).toEqual({
      greeting: { sensitive: false, type: 'string', value: 'hello again' },
      shout: { sensitive: false, type: 'string', value: 'HELLO AGAIN' },
    });

    // berth's side: two state versions (newest first, serials increasing), the outputs of the last.
    const versions = await berth.json('state', 'list', 'app');
    expect(versions).toHaveLength(2);
    const [newest, oldest] = versions.map((v: any) => v.attributes);
    expect(newest.serial).toBeGreaterThan(oldest.serial);
    expect(newest['resource-count']).toBe(1);
    const outputs = await berth.json('state', 'outputs', 'app');
    expect(Object.fromEntries(outputs.map((o: any) => [o.attributes.name, o.attributes.value]))).toEqual({
      greeting: 'hello again',
      shout: 'HELLO AGAIN',
    });
    // The workspace records the CLI's version, which init set.
    const after = await berth.json('workspace', 'show', 'app');
    expect(after.attributes['terraform-version']).toMatch(/^1\.\d+\.\d+/);
  });

  it('by flat tags: init creates the first workspace, workspace new/list/select/delete, apply in two', async () => {
    const berth = await ctx.org('flat-tags');
    await localByDefault(berth, 'flat-tags');
    // A workspace without the tag: the CLI must not see it.
    expect((await berth.remote('workspace', 'create', 'untagged')).code).toBe(0);
    const dir = tf().workdir('flat-tags', {
      'main.tf': cloudBlock('flat-tags', 'tags = ["app"]') + config('terraform.workspace'),
    });
    // No workspace has the tag yet: init asks for the name of one to create.
    const init = await tf().run(dir, ['init', '-no-color'], { stdin: 'app-one\n' });
    expect(init.code, init.output).toBe(0);
    expect(flat(init.stdout)).toContain('There are no workspaces with the configured tags (app)');
    expect(init.stdout).toContain('HCP Terraform has been successfully initialized!');
    expect((await tf().run(dir, ['workspace', 'show'])).stdout.trim()).toBe('app-one');

    const applyOne = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(applyOne.code, applyOne.output).toBe(0);
    expect(applyOne.stdout).toMatch(/greeting = "app-one"/);

    const created = await tf().run(dir, ['workspace', 'new', '-no-color', 'app-two']);
    expect(created.code, created.output).toBe(0);
    expect(created.stdout).toContain('Created and switched to workspace "app-two"!');
    const applyTwo = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(applyTwo.code, applyTwo.output).toBe(0);
    expect(applyTwo.stdout).toMatch(/greeting = "app-two"/);

    expect((await tf().run(dir, ['workspace', 'new', '-no-color', 'app-three'])).code).toBe(0);
    const listed = await tf().run(dir, ['workspace', 'list']);
    expect(listed.code, listed.output).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual(['  app-one', '* app-three', '  app-two']);

    const selected = await tf().run(dir, ['workspace', 'select', '-no-color', 'app-one']);
    expect(selected.code, selected.output).toBe(0);
    expect(selected.stdout).toContain('Switched to workspace "app-one".');
    const deleted = await tf().run(dir, ['workspace', 'delete', '-no-color', 'app-three']);
    expect(deleted.code, deleted.output).toBe(0);
    expect(deleted.stdout).toContain('Deleted workspace "app-three"!');
    const after = await tf().run(dir, ['workspace', 'list']);
    expect(after.stdout.split('\n').filter(Boolean)).toEqual(['* app-one', '  app-two']);

    // berth's side: the two workspaces carry the tag, each holds its own outputs.
    const workspaces = await berth.json('workspace', 'list');
    const byName = Object.fromEntries(workspaces.map((w: any) => [w.attributes.name, w.attributes['tag-names']]));
    expect(byName).toEqual({ 'app-one': ['app'], 'app-two': ['app'], untagged: [] });
    for (const name of ['app-one', 'app-two']) {
      const outputs = await berth.json('state', 'outputs', name);
      expect(outputs.map((o: any) => o.attributes.value)).toEqual([name]);
    }
  });

  it('by key-value tags: init creates the workspace with its tag bindings, list shows it, select finds it', async () => {
    const berth = await ctx.org('kv-tags');
    await localByDefault(berth, 'kv-tags');
    // Decoys: the same key with another value, and the value as a flat tag.
    expect((await berth.remote('workspace', 'create', 'staging-app')).code).toBe(0);
    expect((await berth.remote('workspace', 'tag-bindings', 'add', 'staging-app', 'env=staging')).code).toBe(0);
    expect((await berth.remote('workspace', 'create', 'flat-prod', '--tag', 'prod')).code).toBe(0);
    const dir = tf().workdir('kv-tags', {
      'main.tf': cloudBlock('kv-tags', 'tags = { env = "prod" }') + config('terraform.workspace'),
    });
    const init = await tf().run(dir, ['init', '-no-color'], { stdin: 'prod-app\n' });
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain('HCP Terraform has been successfully initialized!');
    const bindings = await berth.json('workspace', 'tag-bindings', 'list', 'prod-app');
    expect(bindings.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([['env', 'prod']]);

    const listed = await tf().run(dir, ['workspace', 'list']);
    expect(listed.code, listed.output).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual(['* prod-app']);
    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).toMatch(/greeting = "prod-app"/);

    // A second one, then back to the first by name.
    expect((await tf().run(dir, ['workspace', 'new', '-no-color', 'prod-db'])).code).toBe(0);
    const selected = await tf().run(dir, ['workspace', 'select', '-no-color', 'prod-app']);
    expect(selected.code, selected.output).toBe(0);
    expect(selected.stdout).toContain('Switched to workspace "prod-app".');
    const both = await tf().run(dir, ['workspace', 'list']);
    expect(both.stdout.split('\n').filter(Boolean)).toEqual(['* prod-app', '  prod-db']);
    const db = await berth.json('workspace', 'tag-bindings', 'list', 'prod-db');
    expect(db.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([['env', 'prod']]);
  });
});

describeTerraform('terraform with a cloud block against berth serve --no-execute-runs', () => {
  const ctx = serveForTerraform({ executeRuns: false });
  const tf = () => ctx.sandbox();

  it('the entitlement set answers operations: false, so the CLI plans and applies locally in a remote-mode workspace', async () => {
    const berth = await ctx.org('no-exec');
    const entitlements = await ctx.api('GET', '/organizations/no-exec/entitlement-set');
    expect(entitlements.body.data.attributes.operations).toBe(false);
    const dir = tf().workdir('no-exec', { 'main.tf': cloudBlock('no-exec', 'name = "app"') + config('"mine"') });
    expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
    const ws = await berth.json('workspace', 'show', 'app');
    expect(ws.attributes['execution-mode']).toBe('remote');
    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    expect(apply.stdout).not.toContain('Running apply in HCP Terraform');
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect((await ctx.api('GET', `/workspaces/${ws.id}/runs`)).body.data).toEqual([]);
    expect((await berth.json('state', 'outputs', 'app'))[0].attributes.value).toBe('mine');
  });
});
