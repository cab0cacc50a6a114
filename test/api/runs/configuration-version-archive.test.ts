import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessFixture, teamMember, teamWorkspaceBody, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import {
  ARCHIVE,
  claim,
  EXECUTING,
  executingFixture,
  finish,
  newConfiguration,
  P,
  runBody,
  sendBytes,
} from '../../helpers/run-execution.js';

/**
 * What can be done to a configuration version once it served: archive it (HCP: 202 for an older
 * uploaded version, a 409 saying why otherwise), and, in the self-hosted edition, the backing-data
 * actions state versions take too (soft-delete, restore, delete for good). What an archived or
 * soft-deleted version no longer does: be downloaded, be planned by a new run, take an upload.
 */
describe('archiving configuration versions and their backing data', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const act = (cv: string, action: string, token = f.owner.token) =>
    f.api.post(`${P}/configuration-versions/${cv}/actions/${action}`, undefined, { token });
  const statusOf = async (cv: string) =>
    (await f.api.get(`${P}/configuration-versions/${cv}`, t())).body.data.attributes.status;
  const download = async (cv: string) => (await f.api.get(`${P}/configuration-versions/${cv}/download`, t())).status;
  const runFrom = (cv: string) => f.api.post(`${P}/runs`, runBody(f.web, {}, cv), t());
  const stored = async (cv: string) =>
    (
      await f.api.store.db
        .selectFrom('configuration_files')
        .select('configuration_version_id')
        .where('configuration_version_id', '=', cv)
        .execute()
    ).length;

  it('archives an older uploaded version (202): its archive goes, and nothing can use it any more', async () => {
    const old = await newConfiguration(f, f.web);
    const current = await newConfiguration(f, f.web);
    const res = await act(old.id, 'archive');
    expect(res.status, res.text).toBe(202);
    expect(res.text).toBe('');
    expect(await statusOf(old.id)).toBe('archived');
    expect(await stored(old.id)).toBe(0);
    // HCP: only uploaded versions are downloaded or planned.
    expect(await download(old.id)).toBe(404);
    const run = await runFrom(old.id);
    expect(run.status).toBe(422);
    expect(run.body.errors[0].source.pointer).toBe('/data/relationships/configuration-version/data/id');
    expect(run.body.errors[0].detail).toContain('archived');
    const upload = await sendBytes(f.api.app, 'PUT', old.attributes['upload-url'], ARCHIVE);
    expect(upload.status).toBe(409);
    // Once is enough; the current one is untouched.
    expect((await act(old.id, 'archive')).status).toBe(409);
    expect(await statusOf(current.id)).toBe('uploaded');
    expect(await download(current.id)).toBe(200);
  });

  it('refuses (409) the current version, one not uploaded, and one a run still needs, saying why', async () => {
    const cv = await newConfiguration(f, f.web);
    const refused = await act(cv.id, 'archive');
    expect(refused.status).toBe(409);
    // What go-tfe's archive test looks for.
    expect(refused.body.errors[0].detail).toContain('transition not allowed');
    expect(refused.body.errors[0].detail).toContain('configuration could not be archived because it is current');
    expect(await statusOf(cv.id)).toBe('uploaded');

    const pending = await newConfiguration(f, f.web, { upload: false });
    const notUploaded = await act(pending.id, 'archive');
    expect(notUploaded.status).toBe(409);
    expect(notUploaded.body.errors[0].detail).toContain('because it is pending');

    const queued = await runFrom(cv.id);
    expect(queued.status, queued.text).toBe(201);
    await newConfiguration(f, f.web); // cv is no longer current
    const busy = await act(cv.id, 'archive');
    expect(busy.status).toBe(409);
    expect(busy.body.errors[0].detail).toContain(`run ${queued.body.data.id} has not finished`);
    await claim(f, queued.body.data.id, 'plan');
    await finish(f, queued.body.data.id, 'plan');
    expect((await f.api.post(`${P}/runs/${queued.body.data.id}/actions/discard`, undefined, t())).status).toBe(202);
    expect((await act(cv.id, 'archive')).status).toBe(202);
  });

  it('is a 404 for an unknown version, and for whoever may not queue runs in its workspace', async () => {
    expect((await act('cv-AAAAAAAAAAAAAAAA', 'archive')).status).toBe(404);
    const old = await newConfiguration(f, f.web);
    await newConfiguration(f, f.web);
    const reader = await teamMember(f, 'readers');
    expect(
      (await f.api.post(`${P}/team-workspaces`, teamWorkspaceBody(reader.teamId, f.web, { access: 'read' }), t()))
        .status,
    ).toBe(200);
    // The reader sees the version, but may not archive it.
    expect((await f.api.get(`${P}/configuration-versions/${old.id}`, { token: reader.token })).status).toBe(200);
    expect((await act(old.id, 'archive', reader.token)).status).toBe(404);
    const outsider = await f.api.userToken('outsider');
    expect((await act(old.id, 'archive', outsider.token)).status).toBe(404);
    expect(await statusOf(old.id)).toBe('uploaded');
    // Whoever may queue runs there may.
    expect((await act(old.id, 'archive')).status).toBe(202);
  });

  it('soft-deletes, restores and permanently deletes the archive of a non-current version (self-hosted)', async () => {
    const old = await newConfiguration(f, f.web);
    const current = await newConfiguration(f, f.web);

    expect((await act(old.id, 'soft_delete_backing_data')).status).toBe(204);
    expect(await statusOf(old.id)).toBe('backing_data_soft_deleted');
    expect(await download(old.id)).toBe(404);
    expect((await runFrom(old.id)).status).toBe(422);
    expect(await stored(old.id)).toBe(1);
    expect((await act(old.id, 'restore_backing_data')).status).toBe(204);
    expect(await statusOf(old.id)).toBe('uploaded');
    expect(await download(old.id)).toBe(200);

    const early = await act(old.id, 'permanently_delete_backing_data');
    expect(early.status).toBe(422);
    expect(early.body.errors[0].detail).toContain('transition not allowed');
    expect((await act(old.id, 'soft_delete_backing_data')).status).toBe(204);
    expect((await act(old.id, 'permanently_delete_backing_data')).status).toBe(204);
    expect(await statusOf(old.id)).toBe('backing_data_permanently_deleted');
    const restore = await act(old.id, 'restore_backing_data');
    expect(restore.status).toBe(422);
    expect(restore.body.errors[0].detail).toContain('transition not allowed');
    expect(await download(old.id)).toBe(404);
    expect(await stored(old.id)).toBe(0);

    // The current version keeps its archive, as one a run still needs does.
    const kept = await act(current.id, 'soft_delete_backing_data');
    expect(kept.status).toBe(422);
    expect(kept.body.errors[0].detail).toContain('transition not allowed');
    const queued = await runFrom(current.id);
    await newConfiguration(f, f.web);
    const busy = await act(current.id, 'soft_delete_backing_data');
    expect(busy.status).toBe(422);
    expect(busy.body.errors[0].detail).toContain(`run ${queued.body.data.id}`);
  });

  it('backing data: workspace admins only (404), and not there in the hosted edition (404)', async () => {
    const old = await newConfiguration(f, f.web);
    await newConfiguration(f, f.web);
    const writer = await teamMember(f, 'writers');
    expect(
      (await f.api.post(`${P}/team-workspaces`, teamWorkspaceBody(writer.teamId, f.web, { access: 'write' }), t()))
        .status,
    ).toBe(200);
    expect((await act(old.id, 'soft_delete_backing_data', writer.token)).status).toBe(404);
    const outsider = await f.api.userToken('outsider');
    for (const action of ['soft_delete_backing_data', 'restore_backing_data', 'permanently_delete_backing_data'])
      expect((await act(old.id, action, outsider.token)).status, action).toBe(404);
    expect(await statusOf(old.id)).toBe('uploaded');
    // Writers may archive it, though (they may queue runs); admins move its backing data.
    expect((await act(old.id, 'soft_delete_backing_data')).status).toBe(204);

    const hosted = await TestApi.create({ settings: { ...EXECUTING, edition: 'hosted' } });
    try {
      const h = await accessFixture(hosted);
      const hcv = (
        await hosted.post(
          `${P}/workspaces/${h.web}/configuration-versions`,
          { data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } } },
          { token: h.owner.token },
        )
      ).body.data;
      for (const action of ['soft_delete_backing_data', 'restore_backing_data', 'permanently_delete_backing_data']) {
        const res = await hosted.post(`${P}/configuration-versions/${hcv.id}/actions/${action}`, undefined, {
          token: h.owner.token,
        });
        expect(res.status, action).toBe(404);
      }
    } finally {
      await hosted.close();
    }
  });
});
