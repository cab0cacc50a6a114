import type { Kysely } from 'kysely';
import { BerthError } from '../../domain/common/errors.js';
import type { DB } from '../schema.js';
import { parseKeys, type SecretKey } from './cipher.js';
import { readKeyFile } from './key-file.js';

/**
 * Where a berth process finds the key of its database's sensitive values, and the keys it knows.
 * A store's keyring is attached to its kysely instance (`useKeyring`) by the composition roots
 * (serve, local mode, the tests), so that every service, the executor's port and the agent
 * protocol, which all hold the store's `db`, find it without a parameter of their own.
 */

export type SecretKeySource =
  /**
   * A key file: `--secret-key-file` / BERTH_SECRET_KEY_FILE, else `<database file>.key`
   * (`beside`: the path every process on that file looks for when none is named).
   */
  | { kind: 'file'; path: string; beside?: boolean }
  /** BERTH_SECRET_KEY: the key itself, in the environment. */
  | { kind: 'environment'; text: string }
  /** Keys held in memory only: an in-memory database's (it dies with the process), the tests'. */
  | { kind: 'memory'; keys: SecretKey[] }
  /** No key named (a PostgreSQL database without --secret-key-file or BERTH_SECRET_KEY). */
  | { kind: 'none' };

/** How a message names a source. */
export function describeSource(source: SecretKeySource): string {
  switch (source.kind) {
    case 'file':
      return `the secret key file ${source.path}`;
    case 'environment':
      return 'BERTH_SECRET_KEY';
    case 'memory':
      return 'the in-memory key of this process';
    case 'none':
      return 'no secret key is named (a PostgreSQL database needs one: BERTH_SECRET_KEY_FILE or BERTH_SECRET_KEY; serve and db rotate-key: --secret-key-file)';
  }
}

/** The 503 of an operation that needs a value the key of this berth cannot give (or take). */
export function secretKeyUnavailable(detail: string): BerthError {
  return new BerthError([{ status: 503, title: 'secret key unavailable', detail }]);
}

/**
 * The keys one process knows for one database. Keys are only ever added: a key file read again
 * (after a rotation wrote a new key into it) adds its keys to those already known, so a value
 * sealed with the previous key still opens in a process that read it before.
 */
export class Keyring {
  private readonly keys = new Map<string, SecretKey>();
  /** Why the source gave no key (a missing file, a malformed key), when it gave none. */
  private why: string | null = null;

  constructor(readonly source: SecretKeySource) {
    this.load();
  }

  /** Reads the source again (a file may have been restored or rotated meanwhile). */
  load(): void {
    const s = this.source;
    try {
      const found =
        s.kind === 'file'
          ? readKeyFile(s.path)
          : s.kind === 'environment'
            ? parseKeys(s.text, 'BERTH_SECRET_KEY')
            : s.kind === 'memory'
              ? s.keys
              : null;
      if (found === null) this.why = s.kind === 'file' ? `${s.path} does not exist` : describeSource(s);
      else this.why = null;
      for (const k of found ?? []) this.keys.set(k.id, k);
    } catch (err) {
      this.why = (err as Error).message;
    }
  }

  /** The key of id `id`: looked up, then looked for again in the source (a rotation may have just added it). */
  key(id: string): SecretKey | undefined {
    if (!this.keys.has(id)) this.load();
    return this.keys.get(id);
  }

  /** The ids of the keys known, in the order they were found. */
  ids(): string[] {
    return [...this.keys.keys()];
  }

  /** The first key the source holds (the one a new database is given). */
  first(): SecretKey | undefined {
    return this.keys.values().next().value;
  }

  /** Why the source gave no key, or null. */
  get problem(): string | null {
    return this.why;
  }

  /**
   * The error of a value sealed with (or a database that names) key `id` that this keyring does
   * not hold: missing (no key at all), or wrong (other keys). Says what to do, never a key.
   */
  missing(id: string): BerthError {
    const where = describeSource(this.source);
    if (this.keys.size === 0)
      return secretKeyUnavailable(
        `the sensitive values of this database are encrypted with key ${id}, and berth has none: ${this.why ?? where}. Give berth that key, which is in no database or backup: put back the key file made with this database, or name it with BERTH_SECRET_KEY_FILE (serve, db rotate-key: --secret-key-file)`,
      );
    return secretKeyUnavailable(
      `the sensitive values of this database are encrypted with key ${id}, but ${where} holds ${this.ids().join(', ')}: it is not this database's key. Give berth the key file made with this database, or the one its last key rotation wrote`,
    );
  }
}

const keyrings = new WeakMap<object, Keyring>();

/** Attaches `keyring` to the store's `db`: what services find for it from then on. */
export function useKeyring(db: Kysely<DB>, keyring: Keyring): void {
  keyrings.set(db, keyring);
}

/** The keyring attached to the store's `db` (never a transaction's: services pass `ctx.db`). */
export function keyringOf(db: Kysely<DB>): Keyring {
  const found = keyrings.get(db);
  if (!found)
    throw secretKeyUnavailable('no secret key was set up for this database: berth opened it without looking for one');
  return found;
}
