#!/usr/bin/env node
// Makes sure bubblewrap (`bwrap`), the sandbox every phase of a run executes in
// (src/runner/sandbox.ts), is on this machine: part of the set-up (`npm run setup`) and of the
// test command (`npm test`). On Debian and Ubuntu, installs the `bubblewrap` package as root or
// through `sudo -n`, the way scripts/chromium.mjs installs chromium. Elsewhere it says what to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PLACES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const found = () => PLACES.find((p) => existsSync(p)) ?? null;

function asRoot(args) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const [cmd, ...rest] = root ? args : ['sudo', '-n', ...args];
  const r = spawnSync(cmd, rest, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

if (process.platform !== 'linux') {
  console.error(
    `bubblewrap: the run sandbox needs Linux; on ${process.platform}, berth serve and berth agent execute runs only with --sandbox off`,
  );
  process.exit(0);
}
if (!found() && existsSync('/usr/bin/apt-get')) {
  console.error('bubblewrap: installing Debian bubblewrap, the sandbox of runs');
  if (!asRoot(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'bubblewrap'])) {
    asRoot(['apt-get', 'update', '-qq']);
    asRoot(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'bubblewrap']);
  }
}
const bwrap = found();
if (!bwrap) {
  console.error(
    'bubblewrap: not found and could not be installed (needs apt-get as root or passwordless sudo): install the bubblewrap package, or run berth serve and berth agent with --sandbox off',
  );
  process.exit(1);
}
// The kernel must let an unprivileged process make the namespaces.
const tried = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
if (tried.status !== 0) {
  console.error(
    `bubblewrap: ${bwrap} cannot make a sandbox here: ${tried.stderr.toString().trim()} (allow unprivileged user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1, or use --sandbox off)`,
  );
  process.exit(1);
}
