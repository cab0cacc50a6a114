import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, tempDb } from '../../helpers/cli.js';
import { remoteCli, startServe, type ServeProcess } from '../../helpers/serve.js';
import { describeTerraform, TERRAFORM } from '../../helpers/terraform.js';

/**
 * `berth agent` (issue 36): two real agents of one pool execute the runs of the pool's workspaces
 * against a real `berth serve`, with the real terraform. Each run executes once and ends applied,
 * and both agents take some. Then the agent executing a run (a `local-exec` that waits for a file
 * the test controls) is SIGKILLed: the run ends errored ("the agent NAME stopped responding"),
 * its workspace is unlocked, and the next run goes to the other agent. Nothing waits for time:
 * every wait is for an event (a line on stderr, a file, a status).
 */

interface AgentProcess {
  child: ChildProcess;
  id: string;
  name: string;
  stderr: () => string;
}

describeTerraform(
  'berth agent executes the runs of its pool',
  () => {
    const tmp = tempDb();
    const work = join(tmp.dir, 'work');
    const flag = join(tmp.dir, 'release');
    const started = join(tmp.dir, 'started.pid');
    const executions = join(tmp.dir, 'executions.log');
    let server: ServeProcess;
    const agents: AgentProcess[] = [];
    let db: Database.Database;
    let orgCli: ReturnType<typeof remoteCli>;
    let poolId = '';

    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, text };
    };

    const startAgent = (token: string, name: string): Promise<AgentProcess> =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            BIN,
            'agent',
            '--server',
            server.url,
            '--token',
            token,
            '--name',
            name,
            '--terraform-binary',
            TERRAFORM!.path,
            // These runs tell the test what they do through files outside their run folder, which
            // the run sandbox hides (the sandboxed agent: agents-without-serve-executor.test.ts).
            '--sandbox',
            'off',
          ],
          { env: { ...process.env, NO_COLOR: '1', BERTH_TOKEN: '' }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let err = '';
        child.on('exit', (code) => reject(new Error(`agent ${name} exited with ${code}:\n${err}`)));
        child.stderr.on('data', (d) => {
          err += d;
          const m = /berth agent (\S+) \((agent-[A-Za-z0-9]{16})\) of pool/.exec(err);
          if (m) resolve({ child, name: m[1], id: m[2], stderr: () => err });
        });
      });

    /** A workspace of the pool, a configuration uploaded to it, and a run that applies it. */
    const queueRun = async (name: string, mainTf: string): Promise<{ ws: string; run: string }> => {
      const ws = await api('POST', '/organizations/agents-org/workspaces', {
        data: {
          type: 'workspaces',
          attributes: { name, 'execution-mode': 'agent', 'agent-pool-id': poolId, 'terraform-version': 'latest' },
        },
      });
      expect(ws.status, ws.text).toBe(201);
      const dir = join(work, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'main.tf'), mainTf);
      const archive = execFileSync('tar', ['-czf', '-', '-C', dir, 'main.tf']);
      const cv = await api('POST', `/workspaces/${ws.body.data.id}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
      });
      expect(cv.status, cv.text).toBe(201);
      const up = await fetch(cv.body.data.attributes['upload-url'], {
        method: 'PUT',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array(archive),
      });
      expect(up.status).toBe(200);
      const run = await api('POST', '/runs', {
        data: {
          type: 'runs',
          attributes: { 'auto-apply': true, message: name },
          relationships: {
            workspace: { data: { type: 'workspaces', id: ws.body.data.id } },
            'configuration-version': { data: { type: 'configuration-versions', id: cv.body.data.id } },
          },
        },
      });
      expect(run.status, run.text).toBe(201);
      return { ws: ws.body.data.id, run: run.body.data.id };
    };
    const runAttributes = async (id: string) => (await api('GET', `/runs/${id}`)).body.data.attributes;
    const status = async (id: string) => (await runAttributes(id)).status as string;
    const FINAL = ['applied', 'errored', 'canceled', 'discarded', 'planned_and_finished'];
    /** Waits until the run ended, and answers how (with its error, if any). */
    const ended = async (id: string): Promise<string> => {
      await expect.poll(async () => FINAL.includes(await status(id)), { timeout: 240_000, interval: 250 }).toBe(true);
      const a = await runAttributes(id);
      return a['error-message'] ? `${a.status}: ${a['error-message']}` : a.status;
    };
    const claimedBy = (id: string) =>
      (db.prepare('select claimed_by from runs where id = ?').get(id) as { claimed_by: string | null }).claimed_by;
    const logOf = (id: string, phase: string) =>
      (
        db.prepare('select body from run_logs where run_id = ? and phase = ? order by seq').all(id, phase) as {
          body: Buffer;
        }[]
      )
        .map((r) => Buffer.from(r.body).toString())
        .join('');

    /** Marks its execution in a file: one line per apply of the resource. */
    const counted = (name: string) => `
resource "terraform_data" "marker" {
  input = "${name}"
  provisioner "local-exec" {
    command = "echo ${name} >> ${executions}"
  }
}
`;

    beforeAll(async () => {
      server = await startServe(tmp.db, ['--execute-runs', '--agent-timeout', '20']);
      orgCli = remoteCli(() => server, 'agents-org');
      expect((await orgCli.remote('org', 'create', 'agents-org', '--email', 'ops@agents.test')).code).toBe(0);
      const pool = await orgCli.json('agent-pool', 'create', 'builders');
      poolId = pool.id;
      const token = await orgCli.json('agent-pool', 'tokens', 'create', 'builders', '--description', 'e2e');
      expect(token.attributes.token).toBeTruthy();
      agents.push(await startAgent(token.attributes.token, 'left'));
      agents.push(await startAgent(token.attributes.token, 'right'));
      db = new Database(tmp.db, { readonly: true, fileMustExist: true });
    });
    afterAll(async () => {
      // Releases the provisioner the killed agent left running, and ends it.
      writeFileSync(flag, 'done');
      if (existsSync(started))
        try {
          process.kill(Number(readFileSync(started, 'utf8').trim()), 'SIGKILL');
        } catch {
          // already gone
        }
      for (const a of agents) if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
      db?.close();
      await server?.stop('SIGKILL');
      tmp.cleanup();
    });

    it('lists the two agents of the pool by name', async () => {
      const listed = await orgCli.json('agent-pool', 'agents', 'builders');
      expect(listed.map((a: any) => [a.attributes.name, a.attributes.status]).sort()).toEqual([
        ['left', 'idle'],
        ['right', 'idle'],
      ]);
    });

    it('executes 20 runs, each once, on both agents', async () => {
      const runs: string[] = [];
      for (let i = 0; i < 20; i++) runs.push((await queueRun(`ws-${i}`, counted(`ws-${i}`))).run);
      for (const id of runs) expect(await ended(id), id).toBe('applied');
      // Each resource was created once: one line per workspace.
      const lines = readFileSync(executions, 'utf8').trim().split('\n').sort();
      expect(lines).toEqual(Array.from({ length: 20 }, (_, i) => `ws-${i}`).sort());
      for (const id of runs) {
        // One claim of each phase: each log starts once.
        expect(logOf(id, 'plan').match(/Terraform run run-\S+ \(plan\)/g)).toHaveLength(1);
        expect(logOf(id, 'apply').match(/Terraform run run-\S+ \(apply\)/g)).toHaveLength(1);
      }
      const by = new Set(runs.map(claimedBy));
      expect([...by].sort()).toEqual(agents.map((a) => a.id).sort());
    });

    it('ends errored the run of an agent that was killed, and the next run goes to the other agent', async () => {
      const slow = await queueRun(
        'slow',
        `
resource "terraform_data" "slow" {
  input = "slow"
  provisioner "local-exec" {
    command = "echo $$ > ${started}; while [ ! -e ${flag} ]; do sleep 0.2; done"
  }
}
`,
      );
      await expect.poll(() => existsSync(started), { timeout: 120_000, interval: 250 }).toBe(true);
      const holder = agents.find((a) => a.id === claimedBy(slow.run))!;
      const other = agents.find((a) => a !== holder)!;
      expect(holder).toBeDefined();
      const killed = new Promise((done) => holder.child.once('exit', done));
      holder.child.kill('SIGKILL');
      await killed;

      expect(await ended(slow.run)).toMatch(
        new RegExp(
          `^errored: The run was interrupted: the agent ${holder.name} stopped responding while the run was applying`,
        ),
      );
      expect((await api('GET', `/workspaces/${slow.ws}`)).body.data.attributes.locked).toBe(false);
      const listed = await orgCli.json('agent-pool', 'agents', 'builders');
      expect(listed.find((a: any) => a.id === holder.id).attributes.status).toBe('exited');

      const next = await queueRun('after', counted('after'));
      expect(await ended(next.run)).toBe('applied');
      expect(claimedBy(next.run)).toBe(other.id);
    });

    it('stops an agent cleanly on SIGTERM: it says it exited', async () => {
      const survivor = agents.find((a) => a.child.exitCode === null && a.child.signalCode === null)!;
      survivor.child.removeAllListeners('exit');
      const exited = new Promise<number | null>((done) => survivor.child.once('exit', (code) => done(code)));
      survivor.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(survivor.stderr()).toContain('berth agent stopped');
      const listed = await orgCli.json('agent-pool', 'agents', 'builders');
      expect(listed.find((a: any) => a.id === survivor.id).attributes.status).toBe('exited');
    });

    it('leaves the runs of a pool without a running agent queued, and run show says why', async () => {
      const waiting = await queueRun('waiting', counted('waiting'));
      await expect.poll(() => status(waiting.run), { timeout: 60_000, interval: 250 }).toBe('plan_queued');
      const shown = await orgCli.remote('run', 'show', waiting.run);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/Waiting\s+for an agent of pool builders: none is running/);
      const pool = await api('GET', `/agent-pools/${poolId}`);
      expect(pool.body.data.attributes['agent-count']).toBe(0);
    });
  },
  300_000,
);
