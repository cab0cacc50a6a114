import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/*
 * The sandbox every phase of a run executes in (executor.ts): bubblewrap (`bwrap`), which needs no
 * privileges where unprivileged user namespaces work. Inside, terraform sees its own run folder
 * (read-write), the system's programs and libraries, CA certificates and name resolution
 * (read-only), a private /tmp, /dev and /proc (a PID namespace of its own: no other process is
 * visible), and nothing else of the machine: not berth's database, configuration, home, temporary
 * folders nor other runs' folders. It dies with its executor (`--die-with-parent`), and whatever
 * it started dies with it (the PID namespace ends with its first process). The network is shared
 * unless `network` is `none`: then only a loopback of its own, and on it berth's port, relayed to
 * berth and nowhere else (berth-bridge.ts).
 */

/** Whether a run's terraform reaches the network: `host` (the machine's, by default) or `none`. */
export type RunNetwork = 'host' | 'none';

export interface SandboxConfig {
  /** The bubblewrap binary. */
  bwrap: string;
  network: RunNetwork;
}

/** What a phase's sandbox is made of: its folder, where terraform runs, and files it may read. */
export interface SandboxMounts {
  /** The run's folder: the only place terraform may write. */
  dir: string;
  /** Where terraform starts (inside `dir`). */
  cwd: string;
  /** Files made visible read-only at their own path (terraform's binary, serve's CA certificate). */
  readOnly: string[];
  /** A file shown as /etc/hosts instead of the machine's (berth-bridge.ts, with network none). */
  hostsFile?: string | null;
}

/** The system's programs and libraries, read-only (symbolic links, as merged-/usr systems have them, stay links). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What of /etc a run needs: CA certificates, name resolution, the time zone, the users (ssh of a
 * git module source asks for its own), the loader's cache and Debian's alternatives (/usr/bin/awk
 * is a link into them). Nothing of berth's.
 */
const ETC_FILES = [
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/crypto-policies',
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/localtime',
  '/etc/passwd',
  '/etc/group',
  '/etc/ld.so.cache',
  '/etc/alternatives',
];

/** Where bubblewrap is when the PATH does not say (serve started with a PATH of its own). */
const BWRAP_PLACES = ['/usr/bin', '/usr/local/bin', '/bin'];

/**
 * The bubblewrap binary: BERTH_BWRAP when set (null when it is no executable file), else the first
 * `bwrap` of the PATH or of BWRAP_PLACES; null when there is none.
 */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string | null {
  const executable = (file: string) => {
    try {
      if (!statSync(file).isFile()) return false;
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (env.BERTH_BWRAP) return executable(env.BERTH_BWRAP) ? env.BERTH_BWRAP : null;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...BWRAP_PLACES];
  const found = dirs.map((d) => join(d, 'bwrap')).find(executable);
  return found ? resolved(found) : null;
}

/** The path of `file` with its links resolved (itself when it cannot be). */
export function resolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function systemMounts(): string[] {
  const args: string[] = [];
  for (const d of SYSTEM_DIRS) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(d), d);
    else if (st.isDirectory()) args.push('--ro-bind', d, d);
  }
  for (const f of ETC_FILES) args.push('--ro-bind-try', f, f);
  return args;
}

/** bwrap's arguments for one phase, up to and excluding the command. */
export function sandboxArgs(config: SandboxConfig, mounts: SandboxMounts): string[] {
  const visible = (file: string) => SYSTEM_DIRS.some((d) => file === d || file.startsWith(`${d}/`));
  const extra = [...new Set(mounts.readOnly.map(resolved))].filter((f) => !visible(f));
  return [
    '--die-with-parent',
    '--unshare-user-try',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(config.network === 'none' ? ['--unshare-net'] : []),
    '--hostname',
    'berth-run',
    '--cap-drop',
    'ALL',
    ...systemMounts(),
    ...(mounts.hostsFile ? ['--ro-bind', mounts.hostsFile, '/etc/hosts'] : []),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    // After /tmp, which would hide them: the run's folder is usually in it, test binaries and certificates may be.
    ...extra.flatMap((f) => ['--ro-bind', f, f]),
    '--bind',
    mounts.dir,
    mounts.dir,
    '--chdir',
    mounts.cwd,
  ];
}

/**
 * The command that runs `command args` in the sandbox. bwrap is started through `sh` with SIGINT
 * ignored: the executor interrupts terraform by signalling its whole process group (as Ctrl-C
 * does), and bwrap, which does not pass signals on, would otherwise die of it at once and take
 * terraform with it before it could stop cleanly. terraform itself listens for SIGINT again.
 */
export function sandboxed(
  config: SandboxConfig,
  mounts: SandboxMounts,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  return {
    command: '/bin/sh',
    args: ['-c', 'trap "" INT; exec "$0" "$@"', config.bwrap, ...sandboxArgs(config, mounts), command, ...args],
  };
}

/**
 * Why the sandbox cannot run `terraform version` here (null: it can): bwrap missing, not Linux, or
 * refused by the kernel (no unprivileged user namespaces). `dir` is an empty folder to try in.
 */
export function sandboxProblem(config: SandboxConfig, terraformPath: string, dir: string): string | null {
  if (process.platform !== 'linux') return `the run sandbox (bubblewrap) needs Linux; this is ${process.platform}`;
  const binary = resolved(terraformPath);
  const { command, args } = sandboxed(config, { dir, cwd: dir, readOnly: [binary] }, binary, ['version', '-json']);
  const r = spawnSync(command, args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, CHECKPOINT_DISABLE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  if (r.error) return `${config.bwrap} cannot be started: ${r.error.message}`;
  if (r.status === 0 && r.stdout.toString().includes('terraform_version')) return null;
  const said = r.stderr.toString().trim().split('\n').slice(-3).join(' ').slice(0, 400);
  return `${config.bwrap} cannot start a sandbox here${said ? `: ${said}` : ` (exit ${r.status ?? r.signal})`}`;
}

/** How an operator gets a sandbox, or goes without one: said wherever runs cannot execute for want of it. */
export const SANDBOX_HELP =
  'install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) on a kernel that ' +
  'allows unprivileged user namespaces, or run every phase unsandboxed with --sandbox off ' +
  '(then any user who may queue a run can run code as berth\'s own user: README, "Executing runs")';
