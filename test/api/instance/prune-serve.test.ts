import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/api/serve.js';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { newId } from '../../../src/domain/common/ids.js';
import { DEFAULT_SETTINGS, type ServiceContext } from '../../../src/services/context.js';
import { setWorkspacePolicy } from '../../../src/services/instance/data-retention.js';
import { createOrganization } from '../../../src/services/organizations/organizations.js';
import { createWorkspace } from '../../../src/services/workspaces/workspaces-write.js';
import { openStore } from '../../../src/store/open.js';
import { tempDb } from '../../helpers/cli.js';

const NOW = new Date('2026-06-30T12:00:00.000Z');

describe('the periodic pruning task of serve', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  async function seed(): Promise<{ ws: string; old: string; fresh: string }> {
    const store = await openStore(tmp.db);
    const ctx: ServiceContext = {
      db: store.db,
      actor: LOCAL_SITE_ADMIN,
      clock: { now: () => NOW },
      settings: DEFAULT_SETTINGS,
    };
    await createOrganization(ctx, { name: 'acme', email: 'a@example.com' });
    const ws = (await createWorkspace(ctx, 'acme', { name: 'app' })).id;
    await setWorkspacePolicy(
      ctx,
      { id: ws },
      { type: 'data-retention-policy-delete-olders', deleteOlderThanNDays: 10 },
    );
    const insert = async (days: number) => {
      const id = newId('sv');
      const at = new Date(NOW.getTime() - days * 86_400_000).toISOString();
      await store.db
        .insertInto('state_versions')
        .values({
          id,
          workspace_id: ws,
          serial: days,
          lineage: 'l',
          md5: 'x',
          status: 'finalized',
          intermediate: 0,
          resource_count: 0,
          size: 2,
          terraform_version: null,
          url_secret: 's',
          created_by_kind: null,
          created_by_id: null,
          created_at: at,
          finalized_at: at,
        })
        .execute();
      return id;
    };
    const old = await insert(11);
    const fresh = await insert(9);
    await store.close();
    return { ws, old, fresh };
  }

  it('runs every interval with the given clock, logs what it deleted, and stops on close', async () => {
    const { ws, old, fresh } = await seed();
    const lines: string[] = [];
    // Waits for the prune's log line (not for a time: a loaded machine may take long to run it).
    let onPrune!: () => void;
    const pruned = new Promise<void>((resolve) => (onPrune = resolve));
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => {
        lines.push(l);
        if (l.startsWith('prune:')) onPrune();
      },
      pruneIntervalMs: 25,
      clock: { now: () => NOW },
    });
    await pruned;
    await server.close();
    expect(lines).toContain('prune: deleted 1 state versions and 0 runs');
    const store = await openStore(tmp.db);
    const left = await store.db.selectFrom('state_versions').select('id').where('workspace_id', '=', ws).execute();
    await store.close();
    expect(left.map((r) => r.id)).toEqual([fresh]);
    expect(left.map((r) => r.id)).not.toContain(old);
  });

  it('is off without an interval (an old state version stays)', async () => {
    let store = await openStore(tmp.db);
    const ws = (await store.db.selectFrom('workspaces').select('id').executeTakeFirstOrThrow()).id;
    const id = newId('sv');
    const at = new Date(NOW.getTime() - 100 * 86_400_000).toISOString();
    await store.db
      .insertInto('state_versions')
      .values({
        id,
        workspace_id: ws,
        serial: 100,
        lineage: 'l',
        md5: 'x',
        status: 'finalized',
        intermediate: 0,
        resource_count: 0,
        size: 2,
        terraform_version: null,
        url_secret: 's',
        created_by_kind: null,
        created_by_id: null,
        created_at: at,
        finalized_at: at,
      })
      .execute();
    await store.close();
    const lines: string[] = [];
    const server = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: (l) => lines.push(l) });
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    expect(lines.filter((l) => l.startsWith('prune'))).toEqual([]);
    store = await openStore(tmp.db);
    const still = await store.db.selectFrom('state_versions').select('id').where('id', '=', id).execute();
    await store.close();
    expect(still).toHaveLength(1);
  });
});
