import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import { DEFAULT_SETTINGS, type InstanceSettings } from './context.js';

/** Reads the instance settings stored in the database, with defaults for unset keys. */
export async function loadSettings(db: Kysely<DB>): Promise<InstanceSettings> {
  const rows = await db.selectFrom('settings').selectAll().execute();
  const map = new Map(rows.map((r) => [r.key, r.value]));
  const edition = map.get('edition');
  return { ...DEFAULT_SETTINGS, edition: edition === 'hosted' ? 'hosted' : 'self-hosted' };
}
