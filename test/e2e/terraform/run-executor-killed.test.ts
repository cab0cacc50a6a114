import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { AUTO, HOST, TerraformSandbox, cloudBlock, describeTerraform } from '../../helpers/terraform.js';

/**
 * serve killed (SIGKILL) while a run applies (issue 42, item 2): its terraform does not go on
 * applying without it, and the next serve to start on that machine keeps the state the apply had
 * written as a state version of the run, never current, saying so in the run's error message. In
 * the sandbox, terraform and what it started die with serve at once; with --sandbox off terraform
 * dies with serve (its parent-death signal) and what it started is killed by the next serve's start.
 * serve's temporary folder is the test's own, so no other test's serve sweeps these run folders.
 */

const processesWith = (marker: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker);
      } catch {
        return false;
      }
    });

/** The processes started for the run folders under `base` (their environment's TMPDIR is one). */
const processesUnder = (base: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'utf8')
          .split('\0')
          .some((v) => v.startsWith(`TMPDIR=${base}/`));
      } catch {
        return false;
      }
    });

describeTerraform(
  'a serve killed while a run applies',
  () => {
    let root: string;
    const sandboxes: TerraformSandbox[] = [];
    /** The servers still running (one killed by the test is no longer here). */
    const servers = new Set<ServeProcess>();

    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'berth-killed-'));
    });
    afterAll(async () => {
      for (const t of sandboxes) await t.cleanup();
      for (const s of servers) await s.stop('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    });

    for (const sandbox of ['bwrap', 'off'] as const) {
      it(`with --sandbox ${sandbox}: terraform stops with it, and the next serve keeps the state it wrote`, async () => {
        const db = join(root, `${sandbox}.db`);
        const runs = join(root, `runs-${sandbox}`);
        mkdirSync(runs);
        const serve = async () => {
          const s = await startServe(db, ['--execute-runs', '--hostname', HOST, '--sandbox', sandbox], {
            TMPDIR: runs,
          });
          servers.add(s);
          return s;
        };
        const first = await serve();
        const made = await runCli(['org', 'create', 'killed', '--email', 'ops@k.test', '--server', first.url], {
          BERTH_TOKEN: first.token!,
        });
        expect(made.code, made.stderr).toBe(0);
        const tf = new TerraformSandbox({ hosts: { [HOST]: first.url }, credentials: { [HOST]: first.token! } });
        sandboxes.push(tf);
        // `a` is made (and written to the state) before `b`'s local-exec, which never ends by itself.
        const marker = `3600.${process.pid}${sandbox === 'off' ? 1 : 2}`;
        const dir = tf.workdir(`killed-${sandbox}`, {
          'main.tf':
            cloudBlock('killed', `name = "ws-${sandbox}"`) +
            `
resource "terraform_data" "a" { input = "made before the kill" }
resource "terraform_data" "b" {
  input = terraform_data.a.output
  provisioner "local-exec" { command = "echo b-started; sleep ${marker}" }
}
`,
        });
        expect((await tf.run(dir, ['init', ...AUTO])).code).toBe(0);
        const apply = tf.start(dir, ['apply', '-auto-approve', ...AUTO]);
        const runId = (await apply.waitFor(/\/runs\/(run-[A-Za-z0-9]{16})/))[1];
        await apply.waitFor('(local-exec): b-started');
        await expect.poll(() => processesWith(`sleep ${marker}`).length, { timeout: 30_000 }).toBeGreaterThan(0);

        servers.delete(first);
        await first.stop('SIGKILL');
        await apply.kill();
        // terraform does not go on applying without serve: in the sandbox nothing of the run is left;
        // without it, only what terraform started (the sleep), until the next serve starts.
        if (sandbox === 'bwrap') await expect.poll(() => processesUnder(runs), { timeout: 30_000 }).toEqual([]);
        else
          await expect
            .poll(() => processesUnder(runs).filter((p) => processesWith(`sleep ${marker}`).includes(p) === false), {
              timeout: 30_000,
            })
            .toEqual([]);
        // The folder the apply ran in is still there, with its state.
        expect(readdirSync(runs).filter((n) => n.startsWith('berth-run-')).length).toBeGreaterThan(0);

        const second = await serve();
        // What the killed terraform started is killed by the next serve's start; the folder removed.
        await expect.poll(() => processesWith(`sleep ${marker}`), { timeout: 30_000 }).toEqual([]);
        await expect
          .poll(() => readdirSync(runs).filter((n) => n.startsWith('berth-run-')), { timeout: 30_000 })
          .toEqual([]);
        const api = async (path: string) =>
          (await (
            await fetch(`${second.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${first.token}` } })
          ).json()) as any;
        const run = await api(`/runs/${runId}`);
        expect(run.data.attributes.status).toBe('errored');
        const message = run.data.attributes['error-message'] as string;
        const kept = /kept as state version (sv-[A-Za-z0-9]{16}), not made current/.exec(message);
        expect(kept, message).not.toBeNull();
        const svId = kept![1];
        // In the workspace's history, created by the run, never current.
        const ws = await api(`/organizations/killed/workspaces/ws-${sandbox}`);
        expect(ws.data.relationships['current-state-version']?.data?.id ?? null).not.toBe(svId);
        const list = await api(`/workspaces/${ws.data.id}/state-versions`);
        expect(list.data.map((v: any) => v.id)).toContain(svId);
        const version = await api(`/state-versions/${svId}`);
        expect(version.data.relationships.run?.data?.id).toBe(runId);
        // The state terraform wrote before the kill: it knows `a`.
        const body = await fetch(version.data.attributes['hosted-state-download-url'], {
          headers: { Authorization: `Bearer ${first.token}` },
        });
        expect(await body.text()).toContain('made before the kill');
      });
    }
  },
  300_000,
);
