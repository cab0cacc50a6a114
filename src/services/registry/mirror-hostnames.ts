import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';

/**
 * The registry hostnames an organization's mirror holds packages of: a run's CLI configuration
 * installs the providers of those hostnames from the mirror only (never directly from their
 * registry, which an air-gapped berth cannot reach), and the others directly (runner/run-folder.ts).
 */
export async function mirrorHostnames(db: Kysely<DB>, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('mirror_archives')
    .select('hostname')
    .distinct()
    .where('organization_id', '=', organizationId)
    .orderBy('hostname')
    .execute();
  return rows.map((r) => r.hostname);
}
