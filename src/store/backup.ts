import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { BerthError, conflict, notFound } from '../domain/common/errors.js';
import { newSecurityEpoch } from './security-generation.js';
import { KEY_ID_SETTING } from './secrets/sealed-values.js';

export interface BackupResult {
  /** The backup file written. */
  file: string;
  /** Its size in bytes. */
  bytes: number;
  /** The database it copies. */
  source: string;
  /** Database pages copied. */
  pages: number;
  /** The highest migration applied in the copy (its schema version). */
  schemaVersion: number;
  /**
   * The id of the key its sensitive values are encrypted with (null: none set up). The backup
   * holds them encrypted, and never the key: the key file must be kept with it.
   */
  secretKeyId: string | null;
}

export interface RestoreResult {
  /** The database file written. */
  file: string;
  bytes: number;
  /** The backup it came from. */
  backup: string;
  schemaVersion: number;
  /** True when an existing database was overwritten (--force). */
  replaced: boolean;
  /** The id of the key the restored database's sensitive values need (null: none set up). */
  secretKeyId: string | null;
}

const invalid = (detail: string) => new BerthError([{ status: 422, title: 'invalid backup', detail }]);

/** Copies every page in one step: one read snapshot, so concurrent writers cannot restart it. */
const ALL_PAGES = () => 0x7fffffff;

function schemaVersion(db: Database.Database): number {
  const row = db.prepare('select max(version) as v from berth_migrations').get() as { v: number | null };
  return Number(row.v ?? 0);
}

/** The id of the key the copy's sensitive values are sealed with (store/secrets/), never the key. */
function secretKeyIdOf(db: Database.Database): string | null {
  const row = db.prepare('select value from settings where key = ?').get(KEY_ID_SETTING) as
    { value: string } | undefined;
  return row?.value ?? null;
}

/** A side file next to `file` for writing before the final rename. */
const partialOf = (file: string) => `${file}.partial-${process.pid}`;

/** The side files SQLite may keep beside a database (its journal, write-ahead log and shared memory). */
const sideFiles = (file: string) => [`${file}-wal`, `${file}-shm`, `${file}-journal`];

function removeDatabaseFiles(file: string): void {
  for (const f of [file, ...sideFiles(file)]) rmSync(f, { force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what killed backups (or restores) into `file` left behind: their side files
 * `FILE.partial-<pid>` and those files' journals, each as large as a whole backup. Those of a
 * process still running (another backup into the same file, now) are left alone.
 */
function removeLeftovers(file: string): void {
  const prefix = `${basename(file)}.partial-`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)(?:-wal|-shm|-journal)?$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !processAlive(pid)) rmSync(join(dirname(file), name), { force: true });
  }
}

/** Makes a rename in `folder` durable (a power cut after it cannot undo it), where the platform allows. */
function syncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not possible on every platform (Windows); the rename itself is still atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Takes a consistent online backup of the database at `source` into `file` with SQLite's
 * backup API, while other processes (a running `berth serve`) may keep writing: the copy is the
 * database as of one instant. It is written beside `file` and renamed into place, so an
 * interrupted backup never leaves a partial file under the final name, and it is a single
 * self-contained file (rollback journal, not WAL). Refuses to overwrite `file` unless `force`;
 * forced, the new copy replaces the old one in that one rename: whenever the backup is killed
 * or fails, `file` is the old backup or the new one, whole. What earlier killed backups left
 * beside `file` is removed first.
 */
export async function backupDatabase(
  source: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupResult> {
  const src = resolve(source);
  const dest = resolve(file);
  if (!existsSync(src)) throw notFound(`no database at ${src}`);
  if (src === dest) throw conflict('the backup file cannot be the database itself');
  if (existsSync(dest) && !options.force) throw conflict(`${dest} already exists; pass --force to overwrite it`);
  if (!existsSync(dirname(dest))) throw notFound(`the folder ${dirname(dest)} does not exist`);

  // Read-write (not readonly): a WAL database needs its shared-memory file, which a read-only
  // connection cannot create when no other process has the database open. Nothing is written.
  const db = new Database(src, { fileMustExist: true });
  const partial = partialOf(dest);
  try {
    db.pragma('busy_timeout = 10000');
    const hasMigrations = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'berth_migrations'")
      .get();
    if (!hasMigrations) throw invalid(`${src} is not a berth database (no berth_migrations table)`);
    removeLeftovers(dest);
    removeDatabaseFiles(partial);
    const progress = await db.backup(partial, { progress: ALL_PAGES });
    const copy = new Database(partial, { fileMustExist: true });
    let version: number;
    let keyId: string | null;
    try {
      copy.pragma('journal_mode = DELETE');
      version = schemaVersion(copy);
      keyId = secretKeyIdOf(copy);
    } finally {
      copy.close();
    }
    // The copy is complete and on disk (SQLite synced it). A journal or WAL left beside the old
    // backup must not meet the new one; then one atomic rename replaces the old backup, if any.
    for (const f of sideFiles(dest)) rmSync(f, { force: true });
    renameSync(partial, dest);
    syncFolder(dirname(dest));
    return {
      file: dest,
      bytes: statSync(dest).size,
      source: src,
      pages: progress.totalPages,
      schemaVersion: version,
      secretKeyId: keyId,
    };
  } catch (err) {
    removeDatabaseFiles(partial);
    throw err;
  } finally {
    db.close();
  }
}

/** Opens a backup read-only and checks it: SQLite's integrity check, and berth's migrations table. */
function checkBackup(file: string): { db: Database.Database; version: number; keyId: string | null } {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, readonly: true });
  } catch (err) {
    throw invalid(`${file} cannot be opened as a database: ${(err as Error).message}`);
  }
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    if (rows.length !== 1 || rows[0].integrity_check !== 'ok') {
      throw invalid(
        `${file} fails the integrity check: ${rows
          .map((r) => r.integrity_check)
          .slice(0, 5)
          .join('; ')}`,
      );
    }
    const hasMigrations = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'berth_migrations'")
      .get();
    if (!hasMigrations) throw invalid(`${file} is not a berth database (no berth_migrations table)`);
    return { db, version: schemaVersion(db), keyId: secretKeyIdOf(db) };
  } catch (err) {
    db.close();
    if (err instanceof BerthError) throw err;
    throw invalid(`${file} is not a valid database: ${(err as Error).message}`);
  }
}

/**
 * Restores a backup into the database file `target`. The backup is checked first (integrity
 * check, berth's migrations table). A new target is written beside it and renamed into place.
 * An existing target is refused unless `force` (it may be the database of a running server);
 * forced, it is overwritten through SQLite's backup API, under SQLite's locks, so a process that
 * has it open sees the restored content rather than a file swapped under its feet.
 */
export async function restoreDatabase(
  backup: string,
  target: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  const from = resolve(backup);
  const dest = resolve(target);
  if (!existsSync(from)) throw notFound(`no backup at ${from}`);
  if (from === dest) throw conflict('the backup and the database to restore into are the same file');
  const exists = existsSync(dest);
  if (exists && !options.force) {
    const inUse = existsSync(`${dest}-wal`) || existsSync(`${dest}-shm`);
    throw conflict(
      `${dest} already exists${inUse ? ' and looks in use (a running berth serve?)' : ''}; restore into a new file with --to PATH, or pass --force to overwrite it`,
    );
  }
  if (!existsSync(dirname(dest))) throw notFound(`the folder ${dirname(dest)} does not exist`);

  const { db, version, keyId } = checkBackup(from);
  try {
    if (exists) {
      await db.backup(dest, { progress: ALL_PAGES });
      // A server with the file open may hold facts cached at the generations of the overwritten
      // history: the restored one gets an epoch of its own (store/security-generation.ts).
      newSecurityEpoch(dest);
    } else {
      const partial = partialOf(dest);
      removeLeftovers(dest);
      removeDatabaseFiles(partial);
      try {
        await db.backup(partial, { progress: ALL_PAGES });
        renameSync(partial, dest);
        syncFolder(dirname(dest));
      } catch (err) {
        removeDatabaseFiles(partial);
        throw err;
      }
    }
  } finally {
    db.close();
  }
  return {
    file: dest,
    bytes: statSync(dest).size,
    backup: from,
    schemaVersion: version,
    replaced: exists,
    secretKeyId: keyId,
  };
}
