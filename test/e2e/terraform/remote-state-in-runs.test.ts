import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import {
  AUTO,
  HOST,
  TerraformSandbox,
  cloudBlock,
  describeTerraform,
  flat,
  serveForTerraform,
  throwawayCertificate,
} from '../../helpers/terraform.js';

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
      // The workspaces the cloud blocks create share with approved consumers only (a self-hosted
      // berth's default is every workspace, as Terraform Enterprise's).
      const approvedOnly = await api('PATCH', '/admin/general-settings', {
        data: { type: 'general-settings', attributes: { 'default-remote-state-access': false } },
      });
      expect(approvedOnly.status).toBe(200);
      await ctx.org('rs-org');
      const a = await apply('rs-a', producer('rs-org', 'A', 'from-a'));
      expect(a.result.code, a.result.output).toBe(0);

      // B is no consumer of A: its plan fails, and says so.
      const refused = await apply('rs-b', consumer('rs-org', 'B', 'A'));
      expect(refused.result.code).not.toBe(0);
      const said = flat(refused.result.output);
      // As for any workspace it may not see: A is not found, and the remote backend's try to create it is refused too.
      expect(said).toContain('Planning failed');
      expect(said).toMatch(
        /Error: Error loading state error .* error loading the remote state: .*workspace A: resource not found/,
      );
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
      // Its organization is not found: the run token's organization is its run's alone.
      expect(flat(reader.result.output)).toContain(`organization "rs-other" at host ${HOST} not found`);
      expect(reader.result.output).not.toContain('secret');
    });
  },
  300_000,
);

describeTerraform(
  'terraform_remote_state in remote runs over TLS, by the names serve gives its runs',
  () => {
    const tmp = tempDb();
    let server: ServeProcess;
    let sandbox: TerraformSandbox;
    let cert = '';
    let port = '';

    beforeAll(async () => {
      const pair = throwawayCertificate(tmp.dir);
      cert = pair.cert;
      server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key, '--execute-runs']);
      port = new URL(server.url).port;
      sandbox = new TerraformSandbox(
        { credentials: { [`localhost:${port}`]: server.token! } },
        { SSL_CERT_FILE: pair.cert },
      );
    });
    afterAll(async () => {
      await sandbox?.cleanup();
      if (server) await server.stop('SIGKILL');
      tmp.cleanup();
    });

    const berth = (...args: string[]) =>
      runCli([...args, '--server', server.url, '--token', server.token!], { NODE_EXTRA_CA_CERTS: cert });

    it("a run reads a global-remote-state workspace at 127.0.0.1:PORT, trusting serve's certificate", async () => {
      expect(server.url).toMatch(/^https:/);
      const made = await berth('org', 'create', 'tls', '--email', 'ops@tls.test');
      expect(made.code, made.stderr).toBe(0);
      const host = `localhost:${port}`;
      const a = sandbox.workdir('tls-a', {
        'main.tf': producer('tls', 'A', 'over-tls').replace(`hostname     = "${HOST}"`, `hostname     = "${host}"`),
      });
      expect((await sandbox.run(a, ['init', ...AUTO])).code).toBe(0);
      const applied = await sandbox.run(a, ['apply', '-auto-approve', ...AUTO]);
      expect(applied.code, applied.output).toBe(0);
      const shared = await berth(
        'api',
        'PATCH',
        '/organizations/tls/workspaces/A',
        '-f',
        'data[type]=workspaces',
        '-F',
        'data[attributes][global-remote-state]=true',
      );
      expect(shared.code, shared.stderr).toBe(0);

      const b = sandbox.workdir('tls-b', {
        'main.tf': consumer('tls', 'B', 'A')
          .replace(`hostname     = "${HOST}"`, `hostname     = "${host}"`)
          .replace(`hostname     = "${HOST}"`, `hostname     = "127.0.0.1:${port}"`),
      });
      expect((await sandbox.run(b, ['init', ...AUTO])).code).toBe(0);
      const read = await sandbox.run(b, ['apply', '-auto-approve', ...AUTO]);
      expect(read.code, read.output).toBe(0);
      expect(read.stdout).toContain('got = "over-tls"');
    });
  },
  180_000,
);
