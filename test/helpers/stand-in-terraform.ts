import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { expect } from 'vitest';
import type { AccessFixture } from './access.js';
import { newConfiguration, P, sendBytes } from './run-execution.js';

/**
 * A stand-in terraform for the executor's tests (a shell script): its plan prints `planning`, then
 * waits for the test to say `resume` (prints `resumed`), then `finish` (prints `planned`, exits 0).
 * Each step is a file the test creates, so the test decides what happens when, never the clock.
 * Until `finish` a plan only ends when it is stopped.
 */
export interface StandInTerraform {
  path: string;
  /** Lets the plans go on: `resume` then `finish`. */
  say(step: 'resume' | 'finish'): void;
  /** Whether the plan started (printed `planning`). */
  planning(): boolean;
  /** The pid of the last plan's shell (0: none yet). */
  planPid(): number;
  /** Removes the stand-in's folder: once its plans ended (`say` both steps, then stop the executor). */
  remove(): void;
}

export function standInTerraform(): StandInTerraform {
  const dir = mkdtempSync(join(tmpdir(), 'berth-stand-in-'));
  const at = (name: string) => join(dir, name);
  const waitFor = (name: string) => `while [ ! -f '${at(name)}' ]; do sleep 0.05; done`;
  const path = at('terraform');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'case "$1" in',
      `  version) echo '{"terraform_version":"1.11.4"}' ;;`,
      `  plan) echo $$ > '${at('plan.pid')}'; echo planning; touch '${at('planning')}'`,
      `    ${waitFor('resume')}; echo resumed`,
      `    ${waitFor('finish')}; echo planned; exit 0 ;;`,
      `  show) echo '{"resource_changes":[]}' ;;`,
      'esac',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return {
    path,
    say: (step) => writeFileSync(at(step), ''),
    planning: () => existsSync(at('planning')),
    planPid: () => (existsSync(at('plan.pid')) ? Number(readFileSync(at('plan.pid'), 'utf8')) : 0),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Makes workspace `ws` runnable by the stand-in: any terraform version, and a real tar configuration. */
export async function runnableWorkspace(f: AccessFixture, ws: string, org = 'acme'): Promise<void> {
  const res = await f.api.patch(
    `${P}/workspaces/${ws}`,
    { data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } } },
    { token: f.owner.token },
  );
  expect(res.status, res.text).toBe(200);
  const src = mkdtempSync(join(tmpdir(), `berth-config-${org}-`));
  try {
    writeFileSync(join(src, 'main.tf'), '');
    const archive = join(src, 'config.tar.gz');
    create({ gzip: true, cwd: src, sync: true, file: archive }, ['main.tf']);
    const cv = await newConfiguration(f, ws, { upload: false });
    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], readFileSync(archive));
    expect(up.status, up.text).toBe(200);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}

/** Every promise rejection nothing handled while it watches (vitest reports them too, after the test). */
export function unhandledRejections(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}
