import { expect, it } from 'vitest';
import { AUTO, HOST, cloudBlock, describeTerraform, flat, serveForTerraform } from '../../helpers/terraform.js';

/**
 * `terraform_remote_state` inside a remote run (issues 34 and 35): the run reads another
 * workspace's state with its run token, which berth allows only when that workspace lets the
 * run's workspace read it (an approved consumer, or global-remote-state), as the spec says.
 */

const producer = (org: string, name: string, value: string) =>
  cloudBlock(org, `name = "${name}"`) +
  `
resource "terraform_data" "marker" {
  input = "${value}"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

const consumer = (org: string, name: string, source: string, sourceOrg = org) =>
  cloudBlock(org, `name = "${name}"`) +
  `
data "terraform_remote_state" "source" {
  backend = "remote"
  config = {
    hostname     = "${HOST}"
    organization = "${sourceOrg}"
    workspaces = {
      name = "${source}"
    }
  }
}

output "got" {
  value = data.terraform_remote_state.source.outputs.greeting
}
`;

describeTerraform(
  'terraform_remote_state in remote runs, with the run token',
  () => {
    const ctx = serveForTerraform({ serveArgs: ['--execute-runs', '--hostname', HOST] });
    const tf = () => ctx.sandbox();
    const api = async (method: string, path: string, body?: unknown) => {
      const server = ctx.server();
      const res = await fetch(`${server.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
    };
    const workspaceId = async (org: string, name: string) =>
      (await api('GET', `/organizations/${org}/workspaces/${name}`)).body.data.id as string;

    /** Applies `files` in a fresh working folder as workspace `name`; answers the run's output. */
    const apply = async (folder: string, files: string) => {
      const dir = tf().workdir(folder, { 'main.tf': files });
      const init = await tf().run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      return { dir, result: await tf().run(dir, ['apply', '-auto-approve', ...AUTO]) };
    };

    it('a consumer reads the state; a workspace that is not refused, with the error in its plan', async () => {
      await ctx.org('rs-org');
      const a = await apply('rs-a', producer('rs-org', 'A', 'from-a'));
      expect(a.result.code, a.result.output).toBe(0);

      // B is no consumer of A: its plan fails, and says so.
      const refused = await apply('rs-b', consumer('rs-org', 'B', 'A'));
      expect(refused.result.code).not.toBe(0);
      const said = flat(refused.result.output);
      // The run token never shows in a log.
      expect(refused.result.output).not.toContain('berth-run.');

      // A approves B: the same configuration now applies and outputs A's value.
      const [idA, idB] = [await workspaceId('rs-org', 'A'), await workspaceId('rs-org', 'B')];
      const added = await api('POST', `/workspaces/${idA}/relationships/remote-state-consumers`, {
        data: [{ type: 'workspaces', id: idB }],
      });
      expect(added.status).toBe(204);
      const allowed = await tf().run(refused.dir, ['apply', '-auto-approve', ...AUTO]);
      expect(allowed.code, allowed.output).toBe(0);
      const out = await tf().run(refused.dir, ['output', '-json', '-no-color']);
      expect(out.code, out.output).toBe(0);
      expect(JSON.parse(out.stdout).got.value).toBe('from-a');
      expect(allowed.output).not.toContain('berth-run.');
    });

    it('global-remote-state lets every workspace of the organization read the state', async () => {
      await ctx.org('rs-global');
      const shared = await apply('rsg-shared', producer('rs-global', 'shared', 'for-all'));
      expect(shared.result.code, shared.result.output).toBe(0);
      const id = await workspaceId('rs-global', 'shared');
      const patched = await api('PATCH', `/workspaces/${id}`, {
        data: { type: 'workspaces', attributes: { 'global-remote-state': true } },
      });
      expect(patched.status).toBe(200);
      const reader = await apply('rsg-reader', consumer('rs-global', 'reader', 'shared'));
      expect(reader.result.code, reader.result.output).toBe(0);
      const out = await tf().run(reader.dir, ['output', '-json', '-no-color']);
      expect(JSON.parse(out.stdout).got.value).toBe('for-all');
    });

    it('another organization stays out of reach, even with global-remote-state', async () => {
      await ctx.org('rs-home');
      await ctx.org('rs-other');
      const other = await apply('rso-src', producer('rs-other', 'src', 'secret'));
      expect(other.result.code, other.result.output).toBe(0);
      const id = await workspaceId('rs-other', 'src');
      await api('PATCH', `/workspaces/${id}`, {
        data: { type: 'workspaces', attributes: { 'global-remote-state': true } },
      });
      const reader = await apply('rso-reader', consumer('rs-home', 'reader', 'src', 'rs-other'));
      expect(reader.result.code).not.toBe(0);
      expect(flat(reader.result.output)).toMatch(/error loading the remote state: .*resource not found/);
      expect(reader.result.output).not.toContain('secret');
    });
  },
  300_000,
);
