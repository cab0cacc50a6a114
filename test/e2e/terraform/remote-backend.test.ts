import { expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import {
  AUTO,
  HOST,
  cloudBlock,
  describeTerraform,
  flat,
  localByDefault,
  serveForTerraform,
} from '../../helpers/terraform.js';

/**
 * The real Terraform CLI's older `remote` backend against berth (by workspace name and by
 * prefix), and `terraform_remote_state` with `backend = "remote"` reading another workspace's
 * outputs: allowed to a token that may read that workspace, refused to a user whose teams may not.
 * serve executes runs: the workspace by name runs its apply on berth; the scenarios that read
 * terraform.workspace put their organization in local execution mode (localByDefault).
 */

const remoteBackend = (org: string, workspaces: string) => `terraform {
  backend "remote" {
    hostname     = "${HOST}"
    organization = "${org}"
    workspaces {
      ${workspaces}
    }
  }
}
`;

const resources = `
resource "terraform_data" "marker" {
  input = "made in \${terraform.workspace}"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

/** A configuration with local state that reads ORG/WORKSPACE's outputs through the remote backend. */
const reader = (org: string, workspace: string) => `
data "terraform_remote_state" "other" {
  backend = "remote"
  config = {
    hostname     = "${HOST}"
    organization = "${org}"
    workspaces = {
      name = "${workspace}"
    }
  }
}

output "read" {
  value = data.terraform_remote_state.other.outputs.greeting
}
`;

const lines = (text: string) => text.split('\n').filter(Boolean);

describeTerraform('terraform with the remote backend against berth serve', () => {
  const ctx = serveForTerraform();
  const tf = () => ctx.sandbox();

  it('workspaces.name: init creates the workspace, apply, output', async () => {
    const berth = await ctx.org('remote-name');
    const dir = tf().workdir('remote-name', {
      'main.tf': remoteBackend('remote-name', 'name = "app-web"') + resources,
    });
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.code, init.output).toBe(0);
    expect(init.stdout).toContain('Successfully configured the backend "remote"!');
    expect((await berth.json('workspace', 'show', 'app-web')).attributes.name).toBe('app-web');

    const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
    expect(apply.code, apply.output).toBe(0);
    // The remote backend ran the apply on berth.
    expect(apply.stdout).toContain('Running apply in the remote backend.');
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const output = await tf().run(dir, ['output', '-raw', '-no-color', 'greeting']);
    expect(output.code, output.output).toBe(0);
    // With a single named workspace the CLI's own workspace is "default".
    expect(output.stdout).toBe('made in default');
    const outputs = await berth.json('state', 'outputs', 'app-web');
    expect(outputs.map((o: any) => o.attributes.value)).toEqual(['made in default']);
  });

  it('workspaces.prefix: workspace new creates PREFIX-NAME, apply in two, list, select, output', async () => {
    const berth = await ctx.org('remote-prefix');
    await localByDefault(berth, 'remote-prefix');
    // Not the prefix: the CLI never lists it.
    expect((await berth.remote('workspace', 'create', 'other-thing')).code).toBe(0);
    const dir = tf().workdir('remote-prefix', {
      'main.tf': remoteBackend('remote-prefix', 'prefix = "app-"') + resources,
    });
    // No workspace with the prefix yet: the backend is configured, and the CLI says to make one.
    const init = await tf().run(dir, ['init', ...AUTO]);
    expect(init.stdout).toContain('Successfully configured the backend "remote"!');
    expect(init.code).toBe(1);
    expect(flat(init.stderr)).toContain('No existing workspaces.');

    for (const name of ['web', 'api']) {
      const created = await tf().run(dir, ['workspace', 'new', '-no-color', name]);
      expect(created.code, created.output).toBe(0);
      expect(created.stdout).toContain(`Created and switched to workspace "${name}"!`);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain(`greeting = "made in ${name}"`);
    }
    const listed = await tf().run(dir, ['workspace', 'list']);
    expect(lines(listed.stdout)).toEqual(['* api', '  web']);
    const selected = await tf().run(dir, ['workspace', 'select', '-no-color', 'web']);
    expect(selected.code, selected.output).toBe(0);
    const output = await tf().run(dir, ['output', '-raw', '-no-color', 'greeting']);
    expect(output.stdout).toBe('made in web');

    // berth's side: the workspaces carry the prefix; each holds its own outputs.
    const names = (await berth.json('workspace', 'list')).map((w: any) => w.attributes.name).sort();
    expect(names).toEqual(['app-api', 'app-web', 'other-thing']);
    for (const name of ['web', 'api']) {
      const outputs = await berth.json('state', 'outputs', `app-${name}`);
      expect(outputs.map((o: any) => o.attributes.value)).toEqual([`made in ${name}`]);
    }
    // Now that workspaces exist, init succeeds.
    const again = await tf().run(dir, ['init', ...AUTO]);
    expect(again.code, again.output).toBe(0);
  });

  it('terraform_remote_state reads outputs with a token that may, and is refused one that may not', async () => {
    const berth = await ctx.org('shared');
    await localByDefault(berth, 'shared');
    // Two producers, by the cloud block (terraform.workspace is the workspace's name): "network"
    // (owners only) and "public" (the team may read).
    for (const name of ['network', 'public']) {
      const dir = tf().workdir(`shared-${name}`, { 'main.tf': cloudBlock('shared', `name = "${name}"`) + resources });
      expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
      expect(apply.code, apply.output).toBe(0);
    }

    // carol: a member of shared through the team "readers", which may read "public" only.
    expect((await berth.remote('user', 'create', 'carol', '--email', 'carol@shared.test')).code).toBe(0);
    const minted = await berth.remote('token', 'create', '--user', 'carol');
    expect(minted.code, minted.stderr).toBe(0);
    const carolToken = minted.stdout.trim();
    expect((await berth.remote('team', 'create', 'readers')).code).toBe(0);
    const access = await berth.remote('team', 'access', 'readers', '--workspace', 'public', '--level', 'read');
    expect(access.code, access.stderr).toBe(0);
    expect((await berth.remote('org', 'invite', 'carol@shared.test', '--team', 'readers')).code).toBe(0);
    const joined = await runCli(['org', 'join', 'shared', '--server', ctx.server().url, '--token', carolToken]);
    expect(joined.code, joined.stderr).toBe(0);
    const asCarol = {
      env: {
        TF_CLI_CONFIG_FILE: tf().cliConfig('carol', {
          hosts: { [HOST]: ctx.server().url },
          credentials: { [HOST]: carolToken },
        }),
      },
    };

    // The owner (the site administrator made the organization) reads "network".
    const ownerDir = tf().workdir('read-network-owner', { 'main.tf': reader('shared', 'network') });
    expect((await tf().run(ownerDir, ['init', ...AUTO])).code).toBe(0);
    const owner = await tf().run(ownerDir, ['apply', '-auto-approve', ...AUTO]);
    expect(owner.code, owner.output).toBe(0);
    expect(owner.stdout).toContain('read = "made in network"');

    // carol reads "public", which her team may read...
    const publicDir = tf().workdir('read-public-carol', { 'main.tf': reader('shared', 'public') });
    expect((await tf().run(publicDir, ['init', ...AUTO], asCarol)).code).toBe(0);
    const allowed = await tf().run(publicDir, ['apply', '-auto-approve', ...AUTO], asCarol);
    expect(allowed.code, allowed.output).toBe(0);
    expect(allowed.stdout).toContain('read = "made in public"');

    // ...and not "network": berth answers 404 as for a workspace that does not exist, so the
    // remote backend tries to create it, and is refused that too.
    const refusedDir = tf().workdir('read-network-carol', { 'main.tf': reader('shared', 'network') });
    expect((await tf().run(refusedDir, ['init', ...AUTO], asCarol)).code).toBe(0);
    const refused = await tf().run(refusedDir, ['apply', '-auto-approve', ...AUTO], asCarol);
    expect(refused.code, refused.output).toBe(1);
    const message = flat(refused.stderr);
    expect(message).toContain('Error loading state error');
    expect(message).toContain('error loading the remote state: Error creating workspace network: resource not found');
    expect(refused.stdout).not.toContain('made in');
    // Nothing changed in berth: still the two workspaces, "network" with its one state version.
    expect((await berth.json('workspace', 'list')).map((w: any) => w.attributes.name).sort()).toEqual([
      'network',
      'public',
    ]);
    expect(await berth.json('state', 'list', 'network')).toHaveLength(1);
  });
});
