import { existsSync } from 'node:fs';
import type { DatabaseLocation } from '../../store/location.js';
import { defaultDatabasePath } from '../../store/paths.js';

/**
 * Where the SQLite file came from, for messages: the flag or variable that named it, or the
 * default path.
 */
export function databaseSource(flags: { db?: string; database?: string }, env: NodeJS.ProcessEnv): string {
  if (flags.database) return 'flag --database';
  if (env.BERTH_DATABASE_URL) return 'environment BERTH_DATABASE_URL';
  if (flags.db) return 'flag --db';
  if (env.BERTH_DB) return 'environment BERTH_DB';
  return 'the default';
}

/**
 * Why a command that does not set berth up may not use this database, or null when it may: a
 * SQLite file that does not exist would be created, empty, by opening it, so a typo in `--db` or
 * `BERTH_DB` would silently start a new database. Only the set-up commands (`org create`,
 * `serve`, `restore`, the target of `db copy`) create one.
 */
export function missingDatabaseProblem(
  location: DatabaseLocation,
  flags: { db?: string; database?: string },
  env: NodeJS.ProcessEnv,
): string | null {
  if (location.kind !== 'sqlite' || location.path === ':memory:' || existsSync(location.path)) return null;
  const source = databaseSource(flags, env);
  if (source === 'the default' && location.path === defaultDatabasePath(env))
    return `there is no berth database yet (${location.path}). Start one with \`berth org create NAME --email EMAIL\` (or \`berth serve\`, \`berth restore BACKUP\`), or work with a server: \`berth login URL\``;
  return `no database at ${location.path} (from ${source}): check the path, or create a database there with \`berth org create NAME --email EMAIL\` (or \`berth serve\`, \`berth restore BACKUP\`)`;
}
