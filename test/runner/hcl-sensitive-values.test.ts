import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/common/clock.js';
import { Executor } from '../../src/runner/executor.js';
import { inProcessPort } from '../../src/runner/in-process-port.js';
import { CONCEALED } from '../../src/runner/log-scrubber.js';
import type { AccessFixture } from '../helpers/access.js';
import { executingFixture, newConfiguration, P, queueRun, runStatus, sendBytes } from '../helpers/run-execution.js';
import { describeTerraform, TERRAFORM } from '../helpers/terraform.js';

/**
 * Issue 42, item 6, with the real terraform: a sensitive HCL workspace variable, which the
 * configuration does not declare sensitive, is printed by terraform leaf by leaf (`inner =
 * "…"`, a number as it normalizes it, a heredoc line by line), never as the stored text. None of
 * its leaves reaches the plan's or the apply's log, nor the redacted JSON plan.
 */

const INNER = 's3cret-inner-leaf';
const PIN = '48151623';
// Stored as typed: 1.50e2 is printed 150; the heredoc's line without its indentation.
const VALUE = `{\n  inner = "${INNER}"\n  pin = ${PIN}\n  ratio = 1.50e2\n  note = <<-EOT\n    heredoc-secret-line\n    EOT\n}`;
const LEAVES = [INNER, PIN, '150', 'heredoc-secret-line'];
const CONFIG = 'variable "creds" {}\n\noutput "creds" {\n  value = var.creds\n}\n';
const WAIT = { timeout: 100_000, interval: 100 };

describeTerraform('a sensitive HCL variable, with the real terraform', () => {
  let f: AccessFixture;
  let dir: string;
  let executor: Executor | null = null;
  const t = () => ({ token: f.owner.token });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-hcl-sensitive-'));
    f = await executingFixture();
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } } },
      t(),
    );
    expect(ws.status, ws.text).toBe(200);
    const vars = await f.api.post(
      `${P}/workspaces/${f.web}/vars`,
      {
        data: {
          type: 'vars',
          attributes: { key: 'creds', value: VALUE, category: 'terraform', hcl: true, sensitive: true },
        },
      },
      t(),
    );
    expect(vars.status, vars.text).toBe(201);
    writeFileSync(join(dir, 'main.tf'), CONFIG);
    const archive = join(dir, 'config.tar.gz');
    create({ gzip: true, cwd: dir, sync: true, file: archive }, ['main.tf']);
    const cv = await newConfiguration(f, f.web, { upload: false });
    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], readFileSync(archive));
    expect(up.status, up.text).toBe(200);
  });
  afterEach(async () => {
    await executor?.stop();
    executor = null;
    await f.api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const log = async (run: any, phase: 'plan' | 'apply') => {
    const id = run.relationships[phase].data.id;
    const doc = (await f.api.get(`${P}/${phase === 'plan' ? 'plans' : 'applies'}/${id}`, t())).body.data;
    return (await f.api.get(new URL(doc.attributes['log-read-url']).pathname)).text;
  };

  it('conceals every leaf in the plan and apply logs and in the redacted JSON plan', async () => {
    const queued = await queueRun(f, f.web, { 'auto-apply': true });
    executor = new Executor(inProcessPort(f.api.store.db, systemClock), {
      terraformPath: TERRAFORM!.path,
      pollMs: 50,
      heartbeatTimeoutMs: 600_000,
    });
    executor.start();
    await expect.poll(() => runStatus(f, queued.id), WAIT).toMatch(/^(applied|errored)$/);
    const run = (await f.api.get(`${P}/runs/${queued.id}`, t())).body.data;
    expect(run.attributes.status, run.attributes['error-message']).toBe('applied');

    const plan = await log(run, 'plan');
    const apply = await log(run, 'apply');
    // Terraform printed the value (concealed here), not a `(sensitive value)` of its own.
    expect(plan).toContain('+ creds = {');
    expect(plan).toMatch(/pin\s+= \(sensitive value\)/);
    for (const text of [plan, apply]) {
      expect(text).toContain(CONCEALED);
      for (const leaf of LEAVES) expect(text, leaf).not.toContain(leaf);
    }
    const redacted = await f.api.get(`${P}/plans/${run.relationships.plan.data.id}/json-output-redacted`, t());
    expect(redacted.status, redacted.text).toBe(200);
    for (const leaf of LEAVES) expect(redacted.text, leaf).not.toContain(leaf);
    expect(JSON.parse(redacted.text).output_changes.creds.after_sensitive).toMatchObject({ inner: true, pin: true });
  });
});
