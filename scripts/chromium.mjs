// Finds Debian's chromium for the browser tests (test/browser), installing it from apt when it is
// missing, the way scripts/pg-cluster.sh installs PostgreSQL: as root directly, else through
// `sudo -n` when that works; `apt-get update` once, non-interactive. BERTH_CHROMIUM names another
// binary. Prints the path (run directly) or returns it (imported).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export function findChromium() {
  if (process.env.BERTH_CHROMIUM) return existsSync(process.env.BERTH_CHROMIUM) ? process.env.BERTH_CHROMIUM : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

function asRoot(args) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const [cmd, ...rest] = root ? args : ['sudo', '-n', ...args];
  const r = spawnSync(cmd, rest, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

export function ensureChromium() {
  const found = findChromium();
  if (found || process.env.BERTH_CHROMIUM) return found;
  if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) return null;
  console.error('chromium: installing Debian chromium for the browser tests');
  if (!asRoot(['apt-get', 'update', '-qq'])) return null;
  if (!asRoot(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'])) return null;
  return findChromium();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = ensureChromium();
  if (!path) {
    console.error(
      'chromium: not found and could not be installed (needs apt-get as root or passwordless sudo); install Debian chromium or set BERTH_CHROMIUM',
    );
    process.exit(1);
  }
  console.log(path);
}
