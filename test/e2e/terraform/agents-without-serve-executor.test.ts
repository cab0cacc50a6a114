import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { AUTO, cloudBlock, describeTerraform, flat, serveForTerraform, TERRAFORM } from '../../helpers/terraform.js';

/**
 * A `berth serve --no-execute-runs` whose runs all go to agents: it needs no terraform of its own.
 * The real Terraform CLI's `cloud` block, in a workspace of execution mode `agent`, creates a run
 * on berth (the entitlement set answers operations: true for the organization), a real `berth
 * agent` of the pool executes its plan and apply, and the CLI streams it to "Apply complete!".
 * In a `remote` workspace of the same organization the CLI is sent to a remote run too (the
 * entitlement set is the organization's), which ends errored at once: serve executes none.
 * Every wait is for an event (a line on stderr, the CLI's exit).
 */

const config = (input: string) => `
resource "terraform_data" "marker" {
  input = ${input}
}

output "greeting" {
  value = terraform_data.marker.output
}
`;

describeTerraform(
  'berth agent against berth serve --no-execute-runs, driven by the Terraform CLI',
  () => {
    const ctx = serveForTerraform({ executeRuns: false });
    const tf = () => ctx.sandbox();
    let agent: { child: ChildProcess; id: string; stderr: () => string } | null = null;

    const startAgent = (token: string): Promise<{ child: ChildProcess; id: string; stderr: () => string }> =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            BIN,
            'agent',
            '--server',
            ctx.server().url,
            '--token',
            token,
            '--name',
            'only',
            '--terraform-binary',
            TERRAFORM!.path,
          ],
          { env: { ...process.env, NO_COLOR: '1', BERTH_TOKEN: '' }, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let err = '';
        child.on('exit', (code) => reject(new Error(`agent exited with ${code}:\n${err}`)));
        child.stderr.on('data', (d) => {
          err += d;
          const m = /berth agent \S+ \((agent-[A-Za-z0-9]{16})\) of pool/.exec(err);
          if (m) resolve({ child, id: m[1], stderr: () => err });
        });
      });

    beforeAll(async () => {
      const berth = await ctx.org('pooled');
      expect((await berth.remote('agent-pool', 'create', 'builders')).code).toBe(0);
      const token = await berth.json('agent-pool', 'tokens', 'create', 'builders', '--description', 'e2e');
      agent = await startAgent(token.attributes.token);
    });
    afterAll(() => {
      if (agent && agent.child.exitCode === null && agent.child.signalCode === null) {
        agent.child.removeAllListeners('exit');
        agent.child.kill('SIGKILL');
      }
    });

    it('the CLI runs the apply on berth, and the agent executes it', async () => {
      // The organization sends its runs to the pool by default: the workspace the CLI creates
      // inherits the agent mode (and takes the CLI's terraform version, which is the agent's).
      const berth = ctx.berth('pooled');
      const set = await berth.remote(
        'org',
        'update',
        'pooled',
        '--default-execution-mode',
        'agent',
        '--default-agent-pool',
        'builders',
      );
      expect(set.code, set.stderr).toBe(0);
      const entitlements = await ctx.api('GET', '/organizations/pooled/entitlement-set');
      expect(entitlements.body.data.attributes).toMatchObject({ operations: true, agents: true });

      const dir = tf().workdir('pooled', { 'main.tf': cloudBlock('pooled', 'name = "app"') + config('"by agent"') });
      const init = await tf().run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toContain('Running apply in HCP Terraform. Output will stream here.');
      expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
      const runId = /\/app\/pooled\/app\/runs\/(run-[A-Za-z0-9]{16})/.exec(apply.stdout)?.[1];
      expect(runId, apply.stdout).toBeDefined();

      // berth's side: the run is applied, executed by the agent, and its state is the workspace's.
      const run = (await ctx.api('GET', `/runs/${runId}`)).body.data;
      expect(run.attributes.status).toBe('applied');
      expect(run.attributes['executed-by']).toMatchObject({ kind: 'agent', name: 'only', 'agent-id': agent!.id });
      const ws = await berth.json('workspace', 'show', 'app');
      expect(ws.attributes['execution-mode']).toBe('agent');
      expect(ws.attributes.locked).toBe(false);
      const current = await ctx.api('GET', `/workspaces/${ws.id}/current-state-version`);
      expect(current.body.data.relationships.run.data).toEqual({ type: 'runs', id: runId });
      expect((await berth.json('state', 'outputs', 'app'))[0].attributes.value).toBe('by agent');
    });

    it("the agent executes each phase in its sandbox: the run sees neither the agent's process nor its home", async () => {
      expect(agent!.stderr()).toMatch(
        /at most 1 at once, each phase in a bubblewrap sandbox \(\S*bwrap, network host\)/,
      );
      const pid = agent!.child.pid!;
      const dir = tf().workdir('pooled-sandboxed', {
        'main.tf':
          cloudBlock('pooled', 'name = "sandboxed"') +
          `
resource "terraform_data" "attempt" {
  provisioner "local-exec" {
    command = <<-EOT
      if [ -e /proc/${pid}/cmdline ] && grep -q agent /proc/${pid}/cmdline; then echo ESCAPED-proc; else echo CONTAINED-proc; fi
      if ls '${process.env.HOME ?? '/root'}' > /dev/null 2>&1; then echo ESCAPED-home; else echo CONTAINED-home; fi
    EOT
  }
}
`,
      });
      expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...AUTO]);
      expect(apply.code, apply.output).toBe(0);
      expect(apply.stdout).toMatch(/\(local-exec\): CONTAINED-proc$/m);
      expect(apply.stdout).toMatch(/\(local-exec\): CONTAINED-home$/m);
    });

    it('in a remote workspace of that organization the CLI meets a run that ended errored at once', async () => {
      const made = await ctx
        .berth('pooled')
        .remote('workspace', 'create', 'elsewhere', '--execution-mode', 'remote', '--terraform-version', 'latest');
      expect(made.code, made.stderr).toBe(0);
      const dir = tf().workdir('pooled-remote', {
        'main.tf': cloudBlock('pooled', 'name = "elsewhere"') + config('"nowhere"'),
      });
      expect((await tf().run(dir, ['init', ...AUTO])).code).toBe(0);
      const plan = await tf().run(dir, ['plan', ...AUTO]);
      expect(plan.code, plan.output).not.toBe(0);
      expect(plan.stdout).toContain('Running plan in HCP Terraform.');
      expect(flat(plan.output)).toContain('this berth has no terraform binary');
    });
  },
  240_000,
);
