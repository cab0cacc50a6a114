import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/domain/common/clock.js';
import { Executor } from '../../../src/runner/executor.js';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import type { AccessFixture } from '../../helpers/access.js';
import {
  claim,
  executingFixture,
  finish,
  newConfiguration,
  P,
  queueRun,
  runBody,
  runStatus,
  sendBytes,
} from '../../helpers/run-execution.js';

/**
 * Workspace settings change what executed runs do, with HCP's meanings: auto-apply (a run that
 * does not say takes the workspace's; the CLI says), allow-destroy-plan (false refuses destroy
 * runs, 422), terraform-version (the executor's one binary must satisfy it, unless `latest`),
 * working-directory (terraform runs in that folder of the configuration). speculative-enabled and
 * queue-all-runs are about VCS-triggered runs: API and CLI runs go on as without them.
 */
describe('workspace settings and executed runs', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());

  const settings = async (attributes: Record<string, unknown>) => {
    const res = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(200);
  };

  it('auto-apply: a run that does not say takes the workspace setting; one that says false (the CLI without -auto-approve) waits for confirmation', async () => {
    await settings({ 'auto-apply': true });
    const inherits = await queueRun(f, f.web);
    expect(inherits.attributes['auto-apply']).toBe(true);
    await claim(f, inherits.id, 'plan');
    await finish(f, inherits.id, 'plan');
    expect(await runStatus(f, inherits.id)).toBe('apply_queued');
    await claim(f, inherits.id, 'apply');
    await finish(f, inherits.id, 'apply', { outcome: 'finished' });
    expect(await runStatus(f, inherits.id)).toBe('applied');

    // terraform apply (cloud backend) sends auto-apply = -auto-approve: false here.
    const cli = await queueRun(f, f.web, { 'auto-apply': false });
    expect(cli.attributes['auto-apply']).toBe(false);
    await claim(f, cli.id, 'plan');
    await finish(f, cli.id, 'plan');
    expect(await runStatus(f, cli.id)).toBe('planned');

    // And the other way round: a workspace without auto-apply, a run that asks for it.
    await f.api.post(`${P}/runs/${cli.id}/actions/discard`, undefined, { token: f.owner.token });
    await settings({ 'auto-apply': false });
    expect((await queueRun(f, f.web)).attributes['auto-apply']).toBe(false);
    expect((await queueRun(f, f.web, { 'auto-apply': true })).attributes['auto-apply']).toBe(true);
  });

  it('allow-destroy-plan false refuses destroy runs with a 422 naming the setting; other runs go on', async () => {
    await settings({ 'allow-destroy-plan': false });
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { 'is-destroy': true }), { token: f.owner.token });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/is-destroy');
    expect(res.body.errors[0].detail).toContain('allow-destroy-plan');
    const runs = await f.api.get(`${P}/workspaces/${f.web}/runs`, { token: f.owner.token });
    expect(runs.body.data).toHaveLength(0);
    await queueRun(f, f.web);
    await settings({ 'allow-destroy-plan': true });
    expect((await queueRun(f, f.web, { 'is-destroy': true })).attributes['is-destroy']).toBe(true);
  });

  it('speculative-enabled and queue-all-runs (VCS settings) do not change API and CLI runs', async () => {
    await settings({ 'speculative-enabled': false, 'queue-all-runs': false });
    const speculative = await newConfiguration(f, f.web, { speculative: true });
    const res = await f.api.post(`${P}/runs`, runBody(f.web, {}, speculative.id), { token: f.owner.token });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes['plan-only']).toBe(true);
    await claim(f, res.body.data.id, 'plan');
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web);
    expect(await runStatus(f, run.id)).toBe('plan_queued');
  });

  describe('with the executor and a stand-in terraform', () => {
    let dir: string;
    let executor: Executor | null = null;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'berth-run-settings-'));
      // A terraform that says its version, and in its plan where it runs and what is there.
      const bin = join(dir, 'terraform');
      writeFileSync(
        bin,
        [
          '#!/bin/sh',
          'case "$1" in',
          `  version) echo '{"terraform_version":"1.11.4"}' ;;`,
          '  plan) echo "planning in $PWD"; ls; exit 0 ;;',
          `  show) echo '{"resource_changes":[]}' ;;`,
          'esac',
          'exit 0',
          '',
        ].join('\n'),
      );
      chmodSync(bin, 0o755);
    });
    afterEach(async () => {
      await executor?.stop();
      executor = null;
      rmSync(dir, { recursive: true, force: true });
    });

    /** Uploads a real configuration: main.tf at the root and in infra/app. */
    const upload = async () => {
      const src = join(dir, 'src');
      mkdirSync(join(src, 'infra', 'app'), { recursive: true });
      writeFileSync(join(src, 'root.tf'), '');
      writeFileSync(join(src, 'infra', 'app', 'app.tf'), '');
      const archive = join(dir, 'config.tar.gz');
      create({ gzip: true, cwd: src, sync: true, file: archive }, ['root.tf', 'infra']);
      const cv = await newConfiguration(f, f.web, { upload: false });
      const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], readFileSync(archive));
      expect(up.status, up.text).toBe(200);
    };

    /** Queues a plan-only run, lets the executor take it, and answers its end and plan log. */
    const execute = async () => {
      await upload();
      const run = await queueRun(f, f.web, { 'plan-only': true });
      executor = new Executor(inProcessPort(f.api.store.db, systemClock), {
        terraformPath: join(dir, 'terraform'),
        pollMs: 50,
      });
      executor.start();
      await expect.poll(() => runStatus(f, run.id), { timeout: 20_000 }).toMatch(/^(planned_and_finished|errored)$/);
      const doc = (await f.api.get(`${P}/runs/${run.id}`, { token: f.owner.token })).body.data;
      const plan = (await f.api.get(`${P}/plans/${doc.relationships.plan.data.id}`, { token: f.owner.token })).body
        .data;
      const log = await f.api.get(new URL(plan.attributes['log-read-url']).pathname);
      return { status: doc.attributes.status as string, error: doc.attributes['error-message'], log: log.text };
    };

    it('terraform-version: a version the binary does not satisfy ends the run errored, naming both', async () => {
      await settings({ 'terraform-version': '1.5.0' });
      const run = await execute();
      expect(run.status).toBe('errored');
      expect(run.error).toContain('Terraform 1.5.0');
      expect(run.error).toContain('Terraform 1.11.4');
      expect(run.log).toContain('The workspace asks for Terraform 1.5.0, but this berth runs Terraform 1.11.4');
      expect(run.log).not.toContain('planning in');
    });

    it('terraform-version: a constraint the binary satisfies, or latest, runs', async () => {
      await settings({ 'terraform-version': '~> 1.11.0' });
      expect((await execute()).status).toBe('planned_and_finished');
      await executor!.stop();
      await settings({ 'terraform-version': 'latest' });
      const doc = (await f.api.get(`${P}/workspaces/${f.web}`, { token: f.owner.token })).body.data;
      expect(doc.attributes['terraform-version']).toBe('latest');
      expect((await execute()).status).toBe('planned_and_finished');
    });

    it('working-directory: terraform runs in that folder of the configuration', async () => {
      await settings({ 'terraform-version': 'latest', 'working-directory': 'infra/app' });
      const run = await execute();
      expect(run.status, run.log).toBe('planned_and_finished');
      expect(run.log).toMatch(/planning in \S+\/work\/infra\/app\n/);
      expect(run.log).toContain('app.tf');
      expect(run.log).toContain('zz_berth_override.tf');
      expect(run.log).not.toContain('root.tf');
    });

    it('working-directory: a folder the configuration does not have ends the run errored', async () => {
      await settings({ 'terraform-version': 'latest', 'working-directory': 'missing' });
      const run = await execute();
      expect(run.status).toBe('errored');
      expect(run.error).toBe('The working directory "missing" is not in the configuration');
    });
  });
});
