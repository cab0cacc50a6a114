import { afterAll, expect, it } from 'vitest';
import { remoteCli, startServe, type ServeProcess } from '../../helpers/serve.js';
import { tempDb } from '../../helpers/cli.js';
import { cloudBlock, describeTerraform, HOST, TerraformSandbox } from '../../helpers/terraform.js';

/**
 * Crash recovery (issue 34): `berth serve` (executing runs) is SIGKILLed while a run applies (a
 * provisioner sleeps). Started again on the same database, it ends that run errored with a
 * message once its heartbeat is older than --run-heartbeat-timeout, releases the workspace's lock,
 * and the run queued behind it executes.
 */
describeTerraform(
  'a run interrupted by a crash of serve',
  () => {
    const tmp = tempDb();
    const ARGS = ['--run-heartbeat-timeout', '2'];
    let server: ServeProcess | undefined;
    let sandbox: TerraformSandbox | undefined;
    afterAll(async () => {
      await sandbox?.cleanup();
      if (server) await server.stop('SIGKILL');
      tmp.cleanup();
    });

    it('ends errored with a message after a restart, unlocks the workspace, and the queued run executes', async () => {
      server = await startServe(tmp.db, ARGS);
      const token = server.token!;
      sandbox = new TerraformSandbox({ hosts: { [HOST]: server.url }, credentials: { [HOST]: token } });
      const made = await remoteCli(() => server!, 'crash-org').remote(
        'org',
        'create',
        'crash-org',
        '--email',
        'ops@crash.test',
      );
      expect(made.code, made.stderr).toBe(0);
      const dir = sandbox.workdir('crash', {
        'main.tf': `${cloudBlock('crash-org', 'name = "app"')}
resource "terraform_data" "slow" {
  input = "x"
  provisioner "local-exec" {
    command = "exec sleep 30"
  }
}
`,
      });
      expect((await sandbox.run(dir, ['init', '-input=false', '-no-color'])).code).toBe(0);
      const apply = sandbox.start(dir, ['apply', '-auto-approve', '-input=false', '-no-color']);
      // The apply's log, streamed by the CLI, says the provisioner started.
      await apply.waitFor(/terraform_data\.slow \(local-exec\): Executing/);
      const runId = /runs\/(run-[A-Za-z0-9]{16})/.exec(apply.output)![1];
      const api = (base: string) => async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}/api/v2${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      };
      let call = api(server.url);
      const run = (await call('GET', `/runs/${runId}`)).body.data;
      expect(run.attributes.status).toBe('applying');
      const ws = run.relationships.workspace.data.id as string;
      // A second run waits behind it (it plans, and waits for confirmation).
      const queued = await call('POST', '/runs', {
        data: {
          type: 'runs',
          attributes: { 'auto-apply': false, message: 'behind the crashed one' },
          relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
        },
      });
      expect(queued.status).toBe(201);
      const next = queued.body.data.id as string;
      expect(queued.body.data.attributes.status).toBe('pending');

      await server.stop('SIGKILL');
      await apply.kill();
      server = await startServe(tmp.db, ARGS);
      call = api(server.url);

      const status = async (id: string) => (await call('GET', `/runs/${id}`)).body.data.attributes.status as string;
      await expect.poll(() => status(runId), { timeout: 30_000 }).toBe('errored');
      const after = (await call('GET', `/runs/${runId}`)).body.data.attributes;
      expect(after['error-message']).toMatch(
        /^The run was interrupted: its executor \(serve-.+\) stopped while it was applying/,
      );
      // The lock the crashed run held went to the queued run, which executes: it plans.
      await expect.poll(() => status(next), { timeout: 60_000 }).toBe('planned');
      const locked = (await call('GET', `/workspaces/${ws}`)).body.data.relationships['locked-by'].data.id;
      expect(locked).toBe(next);
      expect((await call('POST', `/runs/${next}/actions/discard`)).status).toBe(202);
      const wsDoc = (await call('GET', `/workspaces/${ws}`)).body.data;
      expect(wsDoc.attributes.locked).toBe(false);
      expect(server.stderr()).toContain(`run ${runId} was interrupted (its executor stopped): ended errored`);
    });
  },
  180_000,
);
