import { expect, it } from 'vitest';
import { AUTO, HOST, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';
import { scenarioSteps } from '../../helpers/terraform-scenarios.js';

/**
 * Day one with the real Terraform CLI and berth serve: the CLI's workspaces over a `cloud` block
 * by tags, in workspaces that run remotely (terraform.workspace in a run is the workspace's name).
 * workspace show/new/list/select; delete of a workspace with resources, refused by the CLI
 * unless -force (which deletes it in berth, state and all); delete of one emptied by a destroy
 * (the CLI's safe delete); TF_WORKSPACE; and a `cloud` block that names a project, with the
 * organization and hostname given as TF_CLOUD_ORGANIZATION and TF_CLOUD_HOSTNAME.
 */

const resources = `
resource "terraform_data" "a" {
  input = terraform.workspace
}

output "ws" {
  value = terraform_data.a.output
}
`;

const lines = (text: string) => text.split('\n').filter(Boolean);

describeTerraform(
  'terraform workspaces against berth serve',
  () => {
    const ctx = serveForTerraform();
    const { tf, applied } = scenarioSteps(ctx);

    it('by tags, remote runs: show, new and apply in it, list, delete refused with resources, -force, safe delete after destroy', async () => {
      const org = 'ws-tags';
      const berth = await ctx.org(org);
      const dir = tf().workdir(org, { 'main.tf': cloudBlock(org, 'tags = ["svc"]') + resources });
      const init = await tf().run(dir, ['init', '-no-color'], { stdin: 'svc-a\n' });
      expect(init.code, init.output).toBe(0);
      expect((await tf().run(dir, ['workspace', 'show'])).stdout.trim()).toBe('svc-a');
      const applyA = await applied(dir);
      expect(applyA.stdout).toContain('Running apply in HCP Terraform');
      expect(applyA.stdout).toContain('ws = "svc-a"');

      const created = await tf().run(dir, ['workspace', 'new', '-no-color', 'svc-b']);
      expect(created.code, created.output).toBe(0);
      expect(created.stdout).toContain('Created and switched to workspace "svc-b"!');
      expect((await tf().run(dir, ['workspace', 'show'])).stdout.trim()).toBe('svc-b');
      const applyB = await applied(dir);
      expect(applyB.stdout).toContain('ws = "svc-b"');
      expect(lines((await tf().run(dir, ['workspace', 'list'])).stdout)).toEqual(['  svc-a', '* svc-b']);
      const made = await berth.json('workspace', 'show', 'svc-b');
      expect(made.attributes).toMatchObject({ 'execution-mode': 'remote', 'tag-names': ['svc'] });

      // svc-a holds a resource: the CLI refuses to delete it unless -force.
      const refused = await tf().run(dir, ['workspace', 'delete', '-no-color', 'svc-a']);
      expect(refused.code).toBe(1);
      expect(flat(refused.stderr)).toContain('Error: Workspace is not empty');
      expect(flat(refused.stderr)).toContain('- terraform_data.a');
      expect((await berth.remote('workspace', 'show', 'svc-a')).code).toBe(0);
      const forced = await tf().run(dir, ['workspace', 'delete', '-force', '-no-color', 'svc-a']);
      expect(forced.code, forced.output).toBe(0);
      expect(forced.stdout).toContain('Deleted workspace "svc-a"!');
      expect(forced.stdout).toContain('WARNING: "svc-a" was non-empty.');
      expect((await berth.remote('workspace', 'show', 'svc-a')).code).not.toBe(0);

      // Emptied by a destroy run, svc-b goes without -force (berth's safe delete allows it).
      const destroyed = await tf().run(dir, ['destroy', '-auto-approve', ...AUTO]);
      expect(destroyed.code, destroyed.output).toBe(0);
      expect((await tf().run(dir, ['workspace', 'new', '-no-color', 'svc-c'])).code).toBe(0);
      const safe = await tf().run(dir, ['workspace', 'delete', '-no-color', 'svc-b']);
      expect(safe.code, safe.output).toBe(0);
      expect(safe.stdout).toContain('Deleted workspace "svc-b"!');
      expect(lines((await tf().run(dir, ['workspace', 'list'])).stdout)).toEqual(['* svc-c']);
      const names = (await berth.json('workspace', 'list')).map((w: any) => w.attributes.name);
      expect(names).toEqual(['svc-c']);
    });

    it('TF_WORKSPACE picks the workspace of a plan; one that does not exist is refused', async () => {
      const org = 'ws-env';
      const berth = await ctx.org(org);
      expect((await berth.remote('workspace', 'create', 'svc-one', '--tag', 'svc')).code).toBe(0);
      expect((await berth.remote('workspace', 'create', 'svc-two', '--tag', 'svc')).code).toBe(0);
      const dir = tf().workdir(org, { 'main.tf': cloudBlock(org, 'tags = ["svc"]') + resources });
      const init = await tf().run(dir, ['init', ...AUTO], { env: { TF_WORKSPACE: 'svc-two' } });
      expect(init.code, init.output).toBe(0);

      const plan = await tf().run(dir, ['plan', ...AUTO], { env: { TF_WORKSPACE: 'svc-two' } });
      expect(plan.code, plan.output).toBe(0);
      expect(plan.stdout).toContain(`https://${HOST}/app/${org}/svc-two/runs/run-`);
      expect(plan.stdout).toMatch(/\+ input\s+= "svc-two"/);
      const show = await tf().run(dir, ['workspace', 'show'], { env: { TF_WORKSPACE: 'svc-one' } });
      expect(show.stdout.trim()).toBe('svc-one');

      const missing = await tf().run(dir, ['plan', ...AUTO], { env: { TF_WORKSPACE: 'svc-nope' } });
      expect(missing.code).not.toBe(0);
      expect(flat(missing.stderr)).toContain('Invalid workspace selection');
      expect((await berth.remote('workspace', 'show', 'svc-nope')).code).not.toBe(0);
    });

    it('a cloud block with a project, organization and hostname from TF_CLOUD_*: init makes the workspace in it; apply runs there', async () => {
      const org = 'ws-project';
      await ctx.org(org);
      const env = { TF_CLOUD_ORGANIZATION: org, TF_CLOUD_HOSTNAME: HOST };
      const files = {
        'main.tf': `terraform {
  cloud {
    workspaces {
      project = "infra"
      name    = "net"
    }
  }
}
${resources}`,
      };
      const dir = tf().workdir(org, files);
      const init = await tf().run(dir, ['init', ...AUTO], { env });
      expect(init.code, init.output).toBe(0);
      const ws = await ctx.api('GET', `/organizations/${org}/workspaces/net?include=project`);
      expect(ws.status).toBe(200);
      const project = ws.body.included.find((i: any) => i.type === 'projects');
      expect(project.attributes.name).toBe('infra');
      const apply = await applied(dir, [], env);
      expect(apply.stdout).toContain('ws = "net"');
      // A second directory on the same project and workspace finds them.
      const again = tf().workdir(`${org}-again`, files);
      const init2 = await tf().run(again, ['init', ...AUTO], { env });
      expect(init2.code, init2.output).toBe(0);
      const out = await tf().run(again, ['output', '-raw', 'ws'], { env });
      expect(out.stdout).toBe('net');
    });
  },
  240_000,
);
