import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/common/clock.js';
import { Executor } from '../../src/runner/executor.js';
import { inProcessPort } from '../../src/runner/in-process-port.js';
import type { AccessFixture } from '../helpers/access.js';
import { executingFixture, newConfiguration, P, queueRun, runStatus, sendBytes } from '../helpers/run-execution.js';
import { files, gzipBomb } from '../helpers/tar-bomb.js';

/**
 * A gzip bomb as a run's configuration: the executor stops its extraction at the bound, ends the
 * run errored with the bound's message, and removes the phase's folder (before, tar was still
 * writing files into it when the phase ended, and its removal failed with ENOTEMPTY, leaving the
 * folder and its CLI configuration until the next start). A stand-in terraform plays the run.
 */

const WAIT = { timeout: 30_000 };
const MiB = 1024 * 1024;

describe('the executor and a gzip bomb', () => {
  let f: AccessFixture;
  let dir: string;
  let base: string;
  let executor: Executor | null = null;

  beforeEach(async () => {
    f = await executingFixture();
    dir = mkdtempSync(join(tmpdir(), 'berth-bomb-'));
    base = join(dir, 'runs');
    mkdirSync(base);
    const bin = join(dir, 'terraform');
    writeFileSync(bin, `#!/bin/sh\ncase "$1" in version) echo '{"terraform_version":"1.11.4"}' ;; esac\nexit 0\n`);
    chmodSync(bin, 0o755);
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(200);
  });
  afterEach(async () => {
    await executor?.stop();
    executor = null;
    rmSync(dir, { recursive: true, force: true });
    await f.api.close();
  });

  it('is stopped at the bound, the run errored saying so, and its folder is gone after the phase', async () => {
    // 400 small files, then 20 of 4 MiB of zeros (about 80 KB gzipped); the bound is 8 MiB.
    const archive = await gzipBomb([...files(400, 100, 'small', 0x20), ...files(20, 4 * MiB)]);
    const cv = await newConfiguration(f, f.web, { upload: false });
    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], archive);
    expect(up.status, up.text).toBe(200);
    const run = await queueRun(f, f.web, { 'plan-only': true });
    const said: string[] = [];
    executor = new Executor(inProcessPort(f.api.store.db, systemClock), {
      terraformPath: join(dir, 'terraform'),
      pollMs: 50,
      runFolderBase: base,
      maxConfiguration: { bytes: 8 * MiB, entries: 1000 },
      log: (line) => said.push(line),
    });
    executor.start();
    await expect.poll(() => runStatus(f, run.id), WAIT).toBe('errored');
    const doc = (await f.api.get(`${P}/runs/${run.id}`, { token: f.owner.token })).body.data;
    expect(doc.attributes['error-message']).toBe(
      `The configuration unpacks to more than ${8 * MiB} bytes: berth unpacks no more`,
    );
    // The folder is removed before the phase is finished: gone by now, and removed at the first try.
    expect(readdirSync(base)).toEqual([]);
    expect(said.filter((line) => line.includes('could not be removed'))).toEqual([]);
  });
});
