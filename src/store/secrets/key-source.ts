import { resolve } from 'node:path';
import { parseDatabaseLocation, type DatabaseLocation } from '../location.js';
import { newSecretKey } from './cipher.js';
import type { SecretKeySource } from './keyring.js';

/**
 * Where the key of a database's sensitive values comes from, in this order: a key file named
 * (`--secret-key-file`, BERTH_SECRET_KEY_FILE), the key itself in BERTH_SECRET_KEY, else, for a
 * SQLite file, the key file beside it (`<file>.key`, created at the first start of a new
 * database). An in-memory database gets a key of its own that lives as long as it does. A
 * PostgreSQL database, which has no file to put one beside, needs one named.
 */
export function secretKeySource(
  location: DatabaseLocation | string,
  keyFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SecretKeySource {
  if (keyFile) return { kind: 'file', path: resolve(keyFile) };
  if (env.BERTH_SECRET_KEY_FILE) return { kind: 'file', path: resolve(env.BERTH_SECRET_KEY_FILE) };
  if (env.BERTH_SECRET_KEY) return { kind: 'environment', text: env.BERTH_SECRET_KEY };
  const at = typeof location === 'string' ? parseDatabaseLocation(location) : location;
  const where = at.kind === 'sqlite' ? at.path : null;
  if (where === ':memory:') return { kind: 'memory', keys: [newSecretKey()] };
  if (where !== null) return { kind: 'file', path: `${resolve(where)}.key`, beside: true };
  return { kind: 'none' };
}
