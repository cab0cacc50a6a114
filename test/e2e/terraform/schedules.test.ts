import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cloudBlock, describeTerraform, serveForTerraform } from '../../helpers/terraform.js';

/**
 * The scheduler of berth serve (src/scheduler/) against the real Terraform CLI: a workspace
 * applied through a remote run is destroyed by itself when its auto-destroy-at passes, and a
 * health assessment (hosted edition) finds the drift of a state changed behind its back. The
 * scheduler ticks every 200 ms (a hidden test flag); the tests wait for events by polling the API
 * within an overall bound, never for a time.
 */

const CONFIG = `
resource "terraform_data" "marker" {
  input = "hello"
}

output "greeting" {
  value = terraform_data.marker.output
}
`;
const NO_INPUT = ['-input=false', '-no-color'];
const BOUND_MS = 120_000;

describeTerraform(
  'the scheduler of berth serve: auto-destroy and health assessments',
  () => {
    const ctx = serveForTerraform({
      serveArgs: ['--execute-runs', '--edition', 'hosted', '--scheduler-interval-ms', '200'],
    });
    const tf = () => ctx.sandbox();
    const api = async (method: string, path: string, body?: unknown) => {
      const server = ctx.server();
      const res = await fetch(`${server.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('json') && text;
      return { status: res.status, body: json ? JSON.parse(text) : null, text };
    };
    /** Polls `probe` until it answers something, within BOUND_MS. */
    const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
      const until = Date.now() + BOUND_MS;
      for (;;) {
        const found = await probe();
        if (found !== undefined) return found;
        if (Date.now() > until) throw new Error(`gave up waiting for ${what}\n${ctx.server().stderr()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    /** A workspace `name` of a fresh organization, applied by `terraform apply` (a remote run). */
    const applied = async (org: string, name: string) => {
      const berth = await ctx.org(org);
      const dir = tf().workdir(org, { 'main.tf': cloudBlock(org, `name = "${name}"`) + CONFIG });
      expect((await tf().run(dir, ['init', ...NO_INPUT])).code).toBe(0);
      const apply = await tf().run(dir, ['apply', '-auto-approve', ...NO_INPUT]);
      expect(apply.code, apply.output).toBe(0);
      const ws = (await api('GET', `/organizations/${org}/workspaces/${name}`)).body.data;
      return { berth, dir, ws };
    };

    it('auto-destroy-at passes: a destroy run is queued by itself and applied, the state is empty, the time cleared, the trail has it', async () => {
      const { ws } = await applied('ad-org', 'ephemeral');
      expect(ws.attributes['resource-count']).toBe(1);
      const due = new Date(Date.now() + 2000).toISOString();
      const patched = await api('PATCH', `/workspaces/${ws.id}`, {
        data: { type: 'workspaces', attributes: { 'auto-destroy-at': due } },
      });
      expect(patched.status, patched.text).toBe(200);
      const destroy = await waitFor('the auto-destroy run to apply', async () => {
        const runs = (await api('GET', `/workspaces/${ws.id}/runs`)).body.data as any[];
        const run = runs.find((r) => r.attributes['is-destroy']);
        if (run && ['errored', 'canceled', 'discarded'].includes(run.attributes.status))
          throw new Error(`the destroy run ended ${run.attributes.status}: ${run.attributes['error-message']}`);
        return run?.attributes.status === 'applied' ? run : undefined;
      });
      expect(destroy.attributes.message).toContain('auto-destroy');
      expect(destroy.attributes['auto-apply']).toBe(true);
      const after = (await api('GET', `/workspaces/${ws.id}`)).body.data;
      expect(after.attributes['auto-destroy-at']).toBeNull();
      expect(after.attributes['resource-count']).toBe(0);
      expect((await api('GET', `/workspaces/${ws.id}/resources`)).body.data).toEqual([]);
      const trail = (await api('GET', `/organizations/ad-org/audit-trail`)).body.data as any[];
      const record = trail.find((e) => e.attributes.action === 'run.auto-destroy');
      expect(record?.attributes).toMatchObject({
        'actor-kind': 'berth',
        'target-id': destroy.id,
        'workspace-id': ws.id,
      });
    });

    it("a state changed behind the workspace's back: the health assessment reports drift, and workspace show says so", async () => {
      const { berth, dir, ws } = await applied('drift-org', 'watched');
      // Behind its back: the state's output no longer says what its resource and configuration do.
      const pulled = await tf().run(dir, ['state', 'pull']);
      expect(pulled.code, pulled.output).toBe(0);
      const state = JSON.parse(pulled.stdout);
      state.serial += 1;
      state.outputs.greeting.value = 'tampered';
      writeFileSync(join(dir, 'tampered.tfstate'), JSON.stringify(state));
      const push = await tf().run(dir, ['state', 'push', 'tampered.tfstate']);
      expect(push.code, push.output).toBe(0);

      const enabled = await api('PATCH', `/workspaces/${ws.id}`, {
        data: { type: 'workspaces', attributes: { 'assessments-enabled': true } },
      });
      expect(enabled.status, enabled.text).toBe(200);
      const resultId = await waitFor('the first assessment result', async () => {
        const rel = (await api('GET', `/workspaces/${ws.id}`)).body.data.relationships['current-assessment-result'];
        return (rel.data?.id as string | undefined) ?? undefined;
      });
      const result = (await api('GET', `/assessment-results/${resultId}`)).body.data;
      expect(result.attributes).toMatchObject({ drifted: true, succeeded: true, 'error-msg': null });
      const log = await api('GET', `/assessment-results/${resultId}/log-output`);
      expect(log.text).toContain('tampered');
      // No run of the user's kind: the workspace is unlocked and its current run is still the apply.
      const after = (await api('GET', `/workspaces/${ws.id}`)).body.data;
      expect(after.attributes.locked).toBe(false);
      const show = await berth.remote('workspace', 'show', 'watched');
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toMatch(/Drift\s+drifted/);
    });

    it('an untouched workspace: its assessment finds no drift', async () => {
      const { berth, ws } = await applied('steady-org', 'steady');
      const enabled = await api('PATCH', `/workspaces/${ws.id}`, {
        data: { type: 'workspaces', attributes: { 'assessments-enabled': true } },
      });
      expect(enabled.status, enabled.text).toBe(200);
      const current = await waitFor('the first assessment result', async () => {
        const res = await api('GET', `/workspaces/${ws.id}/current-assessment-result`);
        return res.status === 200 ? res.body.data : undefined;
      });
      expect(current.attributes).toMatchObject({ drifted: false, succeeded: true });
      const show = await berth.remote('workspace', 'show', 'steady');
      expect(show.stdout).toMatch(/Drift\s+none/);
    });
  },
  300_000,
);
