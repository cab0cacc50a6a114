import { BerthError } from '../domain/common/errors.js';

/** Error codes of the PostgreSQL server (SQLSTATE) and of the network, as the drivers report them. */
const UNAVAILABLE_SQLSTATE_CLASSES = ['08', '53', '57']; // connection exceptions, insufficient resources, operator intervention
const UNREACHABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
]);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the database could not be reached or is refusing work for now (worth retrying). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (!code)
    return /timeout exceeded when trying to connect|Connection terminated/i.test((err as Error)?.message ?? '');
  if (UNREACHABLE_ERRNO.has(code)) return true;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
  return /^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

/**
 * The API's answer to a database error that is not a bug of berth: the database is unavailable
 * (503, retry shortly), or a value is beyond what a column holds (422; SQLite's integers are
 * 64-bit, PostgreSQL's 32-bit, and a number the input rules let through must not become a 500).
 * Null for anything else (a 500, logged).
 */
export function databaseErrorAnswer(err: unknown): BerthError | null {
  if (isDatabaseUnavailable(err)) {
    return new BerthError(
      [{ status: 503, title: 'service unavailable', detail: 'The database is unavailable; try again shortly.' }],
      { 'Retry-After': '1' },
    );
  }
  const code = codeOf(err);
  if (code === '22003')
    return new BerthError([{ status: 422, title: 'invalid attribute', detail: 'A number is out of range.' }]);
  return null;
}

/** The database of a `--database` URL could not be reached or refused berth (exit code 7). */
export class DatabaseUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnreachableError';
  }
}

/**
 * The database was migrated by a newer berth than this one: its schema has migrations this build
 * does not know, whose tables and rules this build would ignore or break. berth refuses to open it
 * (exit code 2) rather than serve or write it (README, "Upgrading").
 */
export class NewerSchemaError extends Error {
  constructor(
    readonly where: string,
    readonly newest: { version: number; name: string },
    readonly known: number,
  ) {
    super(
      `${where} was last upgraded by a newer berth: its schema has migration ${newest.version} (${newest.name}), ` +
        `and this berth knows migrations up to ${known}. Use that newer berth (or newer), or restore a backup ` +
        `made before the upgrade to go back (README, "Upgrading")`,
    );
    this.name = 'NewerSchemaError';
  }
}
