import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Flags } from '../oclif.js';
import { findBwrap, SANDBOX_HELP, sandboxProblem, type RunNetwork, type SandboxConfig } from '../../runner/sandbox.js';

/**
 * `--sandbox` and `--run-network` of `berth serve` and `berth agent`: every phase of a run in a
 * bubblewrap sandbox by default (runner/sandbox.ts), or none when the operator says so.
 */
export const sandboxFlags = {
  sandbox: Flags.string({
    description:
      'where each phase of a run executes: "bwrap" (default) in a bubblewrap sandbox that sees only its own run folder, the system\'s programs and CA certificates, and no other process; "off" runs terraform as berth\'s own user, seeing all it can see (README, "Executing runs")',
    options: ['bwrap', 'off'],
    default: 'bwrap',
    env: 'BERTH_SANDBOX',
  }),
  'run-network': Flags.string({
    description:
      'the network of a sandboxed run: "host" (default: providers download and reach their APIs) or "none" (a loopback of its own, on which only berth is reachable: its state, registry and mirror)',
    options: ['host', 'none'],
    default: 'host',
    env: 'BERTH_RUN_NETWORK',
  }),
};

export type SandboxChoice =
  { config: SandboxConfig; problem: null } | { config: null; problem: null } | { config: null; problem: string };

/**
 * The sandbox the flags ask for, tried once with `terraformPath` (`terraform version` inside it):
 * `config` null and no problem under `--sandbox off`; a `problem` (saying how to install
 * bubblewrap or go without) when bwrap is missing or cannot start here.
 */
export function chooseSandbox(flags: { sandbox: string; 'run-network': string }, terraformPath: string): SandboxChoice {
  if (flags.sandbox === 'off') return { config: null, problem: null };
  const bwrap = findBwrap();
  if (!bwrap)
    return {
      config: null,
      problem: `${process.env.BERTH_BWRAP ? `BERTH_BWRAP (${process.env.BERTH_BWRAP}) is no executable file` : 'no bwrap (bubblewrap) on the PATH'} for the run sandbox; ${SANDBOX_HELP}`,
    };
  const config: SandboxConfig = { bwrap, network: flags['run-network'] as RunNetwork };
  const dir = mkdtempSync(join(tmpdir(), 'berth-sandbox-check-'));
  try {
    const problem = sandboxProblem(config, terraformPath, dir);
    return problem ? { config: null, problem: `${problem}; ${SANDBOX_HELP}` } : { config, problem: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How the start-up lines describe where runs execute. */
export function sandboxLine(config: SandboxConfig | null): string {
  return config
    ? `each phase in a bubblewrap sandbox (${config.bwrap}, network ${config.network})`
    : "UNSANDBOXED (--sandbox off): terraform runs as berth's own user and sees what it sees; whoever may queue a run may read its database and files";
}
