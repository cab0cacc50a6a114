import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { newId } from '../../../src/domain/common/ids.js';
import { PRUNE_BATCH, previewPrune, pruneRetainedData } from '../../../src/services/instance/data-retention.js';
import type { ServiceContext } from '../../../src/services/context.js';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';
import { goTfeDeleteOlder, goTfeDontDelete } from '../../fixtures/go-tfe.js';

const NOW = new Date('2026-06-30T12:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

describe('pruning by the effective data retention policy', () => {
  let api: TestApi;
  let ctx: ServiceContext;

  async function stateVersion(ws: string, createdAt: string): Promise<string> {
    const id = newId('sv');
    await api.store.db
      .insertInto('state_versions')
      .values({
        id,
        workspace_id: ws,
        serial: 1,
        lineage: 'l',
        md5: 'x',
        status: 'finalized',
        intermediate: 0,
        resource_count: 0,
        size: 2,
        terraform_version: '1.9.0',
        url_secret: 's',
        created_by_kind: null,
        created_by_id: null,
        created_at: createdAt,
        finalized_at: createdAt,
      })
      .execute();
    await api.store.db
      .insertInto('state_files')
      .values({ state_version_id: id, kind: 'state', body: Buffer.from('{}') })
      .execute();
    return id;
  }
  async function run(ws: string, createdAt: string): Promise<string> {
    const id = newId('run');
    await api.store.db
      .insertInto('runs')
      .values({
        id,
        workspace_id: ws,
        status: 'applied',
        source: 'tfe-api',
        is_destroy: 0,
        policy_check_failed: 0,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    return id;
  }
  const ids = async (table: 'state_versions' | 'runs', ws: string) =>
    (await api.store.db.selectFrom(table).select('id').where('workspace_id', '=', ws).orderBy('seq').execute()).map(
      (r) => r.id,
    );

  beforeAll(async () => {
    api = await TestApi.create();
    ctx = { ...TestApi.ctx(api.store, LOCAL_SITE_ADMIN), clock: { now: () => NOW } };
    await api.createOrg('acme');
    await api.createOrg('keepall');
  });
  afterAll(() => api.close());

  it('deletes state versions and runs older than N days, never the current state version or the current run', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'own-policy' })).body.data.id;
    const oldCurrent = await stateVersion(ws, daysAgo(40));
    const old = await stateVersion(ws, daysAgo(31));
    const edge = await stateVersion(ws, daysAgo(29));
    const fresh = await stateVersion(ws, daysAgo(1));
    await api.store.db
      .updateTable('workspaces')
      .set({ current_state_version_id: oldCurrent })
      .where('id', '=', ws)
      .execute();
    const oldRun = await run(ws, daysAgo(45));
    const currentRun = await run(ws, daysAgo(44));
    const newRun = await run(ws, daysAgo(2));
    await api.store.db.updateTable('workspaces').set({ current_run_id: currentRun }).where('id', '=', ws).execute();
    expect(
      (await api.post(`/api/v2/workspaces/${ws}/relationships/data-retention-policy`, goTfeDeleteOlder(30))).status,
    ).toBe(200);

    // The preview counts exactly what the prune then deletes, and deletes nothing itself.
    expect(await previewPrune(ctx)).toEqual({ workspaces: 1, stateVersions: 1, runs: 1 });
    expect(await ids('state_versions', ws)).toHaveLength(4);
    expect(await ids('runs', ws)).toHaveLength(3);
    const result = await pruneRetainedData(ctx);
    expect(result).toEqual({ workspaces: 1, stateVersions: 1, runs: 1 });
    expect(await ids('state_versions', ws)).toEqual([oldCurrent, edge, fresh]);
    expect(await ids('runs', ws)).toEqual([currentRun, newRun]);
    expect(
      await api.store.db
        .selectFrom('state_files')
        .select('state_version_id')
        .where('state_version_id', '=', old)
        .execute(),
    ).toEqual([]);
    expect(await ids('runs', ws)).not.toContain(oldRun);
    // A second run has nothing left to do.
    expect(await pruneRetainedData(ctx)).toEqual({ workspaces: 1, stateVersions: 0, runs: 0 });
  });

  it('the organization default applies to workspaces without their own policy; dont-delete keeps everything', async () => {
    const inherits = (await createWorkspace(api, 'acme', { name: 'inherits' })).body.data.id;
    const keeps = (await createWorkspace(api, 'acme', { name: 'keeps' })).body.data.id;
    const noPolicy = (await createWorkspace(api, 'keepall', { name: 'no-policy' })).body.data.id;
    for (const ws of [inherits, keeps, noPolicy]) {
      await stateVersion(ws, daysAgo(10));
      await run(ws, daysAgo(10));
    }
    const recent = await stateVersion(inherits, daysAgo(6));
    await api.post('/api/v2/organizations/acme/relationships/data-retention-policy', goTfeDeleteOlder(7));
    await api.post(`/api/v2/workspaces/${keeps}/relationships/data-retention-policy`, goTfeDontDelete);

    const result = await pruneRetainedData(ctx);
    // own-policy (30 days, nothing old left) and inherits (7 days) delete; keeps and no-policy do not.
    expect(result).toEqual({ workspaces: 2, stateVersions: 1, runs: 1 });
    expect(await ids('state_versions', inherits)).toEqual([recent]);
    expect(await ids('runs', inherits)).toEqual([]);
    expect(await ids('state_versions', keeps)).toHaveLength(1);
    expect(await ids('runs', keeps)).toHaveLength(1);
    expect(await ids('state_versions', noPolicy)).toHaveLength(1);
  });

  it('the API door: site administrators only (404 for owners), answering the counts', async () => {
    const owner = await teamUser(api, 'acme', 'owner', { is_owners: 1 });
    expect((await api.post('/api/v2/admin/maintenance/prune', undefined, { token: owner })).status).toBe(404);
    const res = await api.post('/api/v2/admin/maintenance/prune');
    expect(res.status).toBe(200);
    // The HTTP door runs on the real clock, which is later than NOW: only the shape is fixed here.
    expect(res.body.data).toMatchObject({
      type: 'prune-results',
      attributes: { workspaces: 2, 'state-versions': expect.any(Number), runs: expect.any(Number) },
    });
  });

  it('works in batches of short write transactions, and still prunes every workspace', async () => {
    await api.createOrg('many');
    await api.post('/api/v2/organizations/many/relationships/data-retention-policy', goTfeDeleteOlder(7));
    const count = 2 * PRUNE_BATCH + 5;
    const wsIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const ws = (await createWorkspace(api, 'many', { name: `w-${i}` })).body.data.id as string;
      wsIds.push(ws);
      await run(ws, daysAgo(10));
    }
    let commits = 0;
    const counting: ServiceContext = {
      ...ctx,
      commitHook: { beforeCommit: () => Promise.resolve(void commits++), afterCommit: () => undefined },
    };
    const result = await pruneRetainedData(counting);
    expect(result.runs).toBe(count);
    // Every workspace of the instance with a deleting policy, in ceil(n / PRUNE_BATCH) transactions.
    expect(commits).toBe(Math.ceil(result.workspaces / PRUNE_BATCH));
    expect(commits).toBeGreaterThanOrEqual(3);
    for (const ws of [wsIds[0], wsIds[PRUNE_BATCH], wsIds[count - 1]]) expect(await ids('runs', ws)).toEqual([]);
  });

  it('GET answers what a POST would delete, deleting nothing and leaving no audit record', async () => {
    const owner = await teamUser(api, 'acme', 'owner2', { is_owners: 1 });
    expect((await api.get('/api/v2/admin/maintenance/prune', { token: owner })).status).toBe(404);
    const before = await api.store.db.selectFrom('state_versions').select('id').execute();
    const audit = await api.store.db.selectFrom('audit_events').select('id').execute();
    const res = await api.get('/api/v2/admin/maintenance/prune');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 'prune',
      type: 'prune-results',
      // Every workspace under a deleting policy so far (the batch test above added many).
      attributes: {
        workspaces: 2 + 2 * PRUNE_BATCH + 5,
        'state-versions': expect.any(Number),
        runs: expect.any(Number),
        'dry-run': true,
      },
    });
    expect(await api.store.db.selectFrom('state_versions').select('id').execute()).toEqual(before);
    expect(await api.store.db.selectFrom('audit_events').select('id').execute()).toEqual(audit);
  });

  it('refuses in the hosted edition', async () => {
    await expect(previewPrune({ ...ctx, settings: { edition: 'hosted' } })).rejects.toMatchObject({ status: 404 });
    await expect(pruneRetainedData({ ...ctx, settings: { edition: 'hosted' } })).rejects.toMatchObject({ status: 404 });
  });
});
