import { chmod, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { ResourceCounts } from '../domain/runs/run-execution.js';
import type { ClaimedRun } from './port.js';

/*
 * What a run's terraform sees of the executor (executor.ts): where it runs, its environment, its
 * CLI configuration, and what its plan's output says.
 */

/** Where terraform runs: the workspace's working directory within the extracted configuration. */
export function workingDir(claim: ClaimedRun, dir: string): string {
  return claim.workingDirectory ? join(dir, 'work', normalize(claim.workingDirectory)) : join(dir, 'work');
}

/**
 * The environment of terraform in a run: nothing of berth's own (no database URL, no token), a
 * HOME of the run's own, automation mode.
 */
export function cleanEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...extra,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    TMPDIR: dir,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    TF_WORKSPACE: 'default',
    ...(process.env.LANG ? { LANG: process.env.LANG } : {}),
  };
}

/** Where the run finds its organization's providers (the claim's `organizationName`, `mirrorHostnames`). */
export interface RunProviderSources {
  organization?: string;
  mirrorHostnames?: string[];
}

/**
 * A Terraform CLI configuration giving each of `hosts` berth's API (`apiUrl` + `/api/v2/`) as its
 * `tfe.v2` services (`tfe.v2.1`, which the `remote` backend requires, and `tfe.v2.2` too), its
 * registries (`modules.v1`, `providers.v1`: modules and private providers under the names clients
 * use), and `token` as its credentials. With an https `apiUrl`, a `provider_installation` block
 * puts the organization's network mirror first: the providers of the hostnames it holds packages
 * of come from it alone (an air-gapped berth never reaches their registry), the others directly.
 * Terraform accepts only an https mirror: over http, providers come directly (berth's own through
 * `providers.v1`) and the mirror's pushed packages are not used (docs/api.md, "Runs and the registry").
 */
export function cliConfigText(
  apiUrl: string,
  hosts: string[],
  token: string,
  sources: RunProviderSources = {},
): string {
  const q = (s: string) => JSON.stringify(s);
  const base = apiUrl.replace(/\/+$/, '');
  const api = `${base}/api/v2/`;
  const services = [
    ...['tfe.v2', 'tfe.v2.1', 'tfe.v2.2'].map((s) => `    ${q(s)} = ${q(api)}`),
    `    "modules.v1" = ${q(`${base}/api/registry/v1/modules/`)}`,
    `    "providers.v1" = ${q(`${base}/api/registry/v1/providers/`)}`,
  ].join('\n');
  const blocks = [...new Set(hosts)].map(
    (h) => `host ${q(h)} {\n  services = {\n${services}\n  }\n}\ncredentials ${q(h)} {\n  token = ${q(token)}\n}\n`,
  );
  if (sources.organization && base.startsWith('https://')) {
    const mirror = `${base}/api/registry/mirror/${encodeURIComponent(sources.organization)}/`;
    const excluded = (sources.mirrorHostnames ?? []).map((h) => q(`${h}/*/*`));
    const direct = excluded.length > 0 ? `  direct {\n    exclude = [${excluded.join(', ')}]\n  }\n` : '  direct {}\n';
    blocks.push(`provider_installation {\n  network_mirror {\n    url = ${q(mirror)}\n  }\n${direct}}\n`);
  }
  return blocks.join('\n');
}

/**
 * The counts of the plan's summary line (`Plan: 1 to import, 2 to add, 0 to change, 1 to destroy.`,
 * the last one at the start of a line), null when the output has none (only outputs change, a
 * refresh-only plan): `terraform show -json` then tells. Terraform counts a replacement as an
 * addition and a destruction, as planCounts does.
 */
export function countsInPlanOutput(text: string): ResourceCounts | null {
  const all = [...text.matchAll(/^Plan: (?:\d+ to import, )?(\d+) to add, (\d+) to change, (\d+) to destroy\b/gm)];
  const m = all.at(-1);
  return m ? { additions: Number(m[1]), changes: Number(m[2]), destructions: Number(m[3]) } : null;
}

/** Gives the owner back every folder under `dir` (a run may have taken its own rights away). */
async function ownAgain(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await ownAgain(join(dir, e.name));
}

/**
 * Removes a run's folder (its variables, its CLI configuration with the run token). A run that took
 * the rights of a folder of its own away is given them back first; what still cannot be removed is
 * answered (the phase ends all the same), for the executor to say so.
 */
export async function removeRunFolder(dir: string): Promise<string | null> {
  try {
    await rm(dir, { recursive: true, force: true });
    return null;
  } catch {
    // Folders only: symbolic links are not followed (lstat), so nothing outside the folder changes.
    if ((await lstat(dir).catch(() => null))?.isDirectory()) await ownAgain(dir);
    return rm(dir, { recursive: true, force: true }).then(
      () => null,
      (err: unknown) => (err as Error).message,
    );
  }
}

/** A fresh folder for a phase, under `base`, named for this process: `berth-run-<pid>-<random>` (left-behind.ts). */
export function newRunFolder(base: string): Promise<string> {
  return mkdtemp(join(base, `berth-run-${process.pid}-`));
}
