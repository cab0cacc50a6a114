import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { keyLine, parseKeys, type SecretKey } from './cipher.js';

/**
 * Key files: the keys that open a database's sensitive values, one per line (two only while a
 * rotation is under way), readable by their owner alone (0600). Never inside the database, so
 * that a copy of the database, a backup or a dump alone reveals no value. Every write goes to a
 * side file first (synced), then into place in one step, so a crash leaves the old file or the
 * new one, whole.
 */

const HEADER =
  '# berth secret key: it encrypts the sensitive variable values of its database, which does not hold it.\n' +
  '# Keep it secret, readable by berth alone, and keep a copy with the backups of the database: without it, they cannot give runs those values.\n';

const why = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'ENOENT') return 'no such file';
  return (err as Error).message;
};

/** The keys of the key file `path`, or null when there is no such file. Throws an Error that says why it cannot be read. */
export function readKeyFile(path: string): SecretKey[] | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read the secret key file ${path}: ${why(err)}`);
  }
  return parseKeys(text, `the secret key file ${path}`);
}

/** A warning when others than its owner may read or change the key file (POSIX modes), else null. */
export function looseModeWarning(path: string): string | null {
  if (process.platform === 'win32') return null;
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) === 0) return null;
    return `the secret key file ${path} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${path}`;
  } catch {
    return null;
  }
}

/** Writes `keys` into a new file `side` (mode 0600) and syncs it to the disk. */
function writeSide(side: string, keys: SecretKey[]): void {
  rmSync(side, { force: true });
  const fd = openSync(side, 'wx', 0o600);
  try {
    writeSync(fd, HEADER + keys.map((k) => `${keyLine(k)}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename or link in `folder` durable, where the platform allows. */
function syncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not possible on every platform; the rename itself is still atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const sideOf = (path: string) => `${path}.writing-${process.pid}`;

/** Replaces (or creates) the key file `path` with `keys`, in one step. */
export function writeKeyFile(path: string, keys: SecretKey[]): void {
  const side = sideOf(path);
  try {
    writeSide(side, keys);
    renameSync(side, path);
  } catch (err) {
    rmSync(side, { force: true });
    throw new Error(`cannot write the secret key file ${path}: ${why(err)}`);
  }
  syncFolder(dirname(path));
}

/**
 * Creates the key file `path` holding `key`, unless it exists: true when this call created it.
 * A hard link puts the complete file in place only if no file has that name, so two processes
 * starting on a new database at once end with one key file, whole, which both then read.
 */
export function createKeyFile(path: string, key: SecretKey): boolean {
  const side = sideOf(path);
  try {
    writeSide(side, [key]);
    linkSync(side, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`cannot create the secret key file ${path}: ${why(err)}`);
  } finally {
    rmSync(side, { force: true });
  }
  syncFolder(dirname(path));
  return true;
}

/**
 * Whether the key file `path` holds the key `keyId`: 'holds', 'other' (it holds other keys, or
 * cannot be read) or 'none' (no such file). For the notes of backup, restore and db copy.
 */
export function keyFileHolds(path: string, keyId: string): 'holds' | 'other' | 'none' {
  try {
    const keys = readKeyFile(path);
    if (keys === null) return 'none';
    return keys.some((k) => k.id === keyId) ? 'holds' : 'other';
  } catch {
    return 'other';
  }
}
