import { resolveDatabasePath } from './paths.js';

/** Where berth keeps its data: a SQLite file (the embedded default) or a PostgreSQL database. */
export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export class DatabaseLocationError extends Error {}

/**
 * Reads a `--database` value: a `postgres://` or `postgresql://` URL selects PostgreSQL; a
 * `sqlite:` URL (`sqlite:PATH`, `sqlite://PATH`, `sqlite:///abs/path`) or a plain path selects
 * SQLite. `:memory:` is a private in-memory SQLite database.
 */
export function parseDatabaseLocation(value: string): DatabaseLocation {
  const text = value.trim();
  if (text.length === 0) throw new DatabaseLocationError('the database location is empty');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new DatabaseLocationError(`not a valid PostgreSQL URL: ${redactPassword(text)}`);
    }
    if (!url.hostname && !url.searchParams.get('host'))
      throw new DatabaseLocationError(`the PostgreSQL URL names no host: ${redactPassword(text)}`);
    return { kind: 'postgres', url: text };
  }
  if (scheme === 'sqlite') {
    let path = text.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path.length === 0) throw new DatabaseLocationError('the sqlite: URL names no file');
    return { kind: 'sqlite', path };
  }
  // A Windows drive letter (C:\...) is a path, not a scheme; anything else with a scheme is not ours.
  if (scheme && scheme.length > 1)
    throw new DatabaseLocationError(
      `unsupported database URL scheme "${scheme}:" (use postgres://, sqlite: or a file path)`,
    );
  return { kind: 'sqlite', path: text };
}

/**
 * The database of a command or server: `--database`, else `$BERTH_DATABASE_URL`, else the SQLite
 * file of `--db` / `$BERTH_DB` / the default path.
 */
export function resolveDatabaseLocation(
  flags: { database?: string; db?: string },
  env: NodeJS.ProcessEnv = process.env,
): DatabaseLocation {
  if (flags.database && flags.database.length > 0) return parseDatabaseLocation(flags.database);
  if (env.BERTH_DATABASE_URL && env.BERTH_DATABASE_URL.length > 0) return parseDatabaseLocation(env.BERTH_DATABASE_URL);
  return { kind: 'sqlite', path: resolveDatabasePath(flags.db, env) };
}

/** The location for messages and logs: a URL's password is never shown. */
export function describeLocation(location: DatabaseLocation): string {
  return location.kind === 'sqlite' ? location.path : redactPassword(location.url);
}

function redactPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
