import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, insertProject, wsBody } from '../../helpers/workspaces.js';

/**
 * `auto-destroy-at` under an activity duration: the workspace's last activity (its creation, then
 * each new state version) plus the duration in force, as HCP Terraform schedules it.
 */

const P = '/api/v2';
const STATE = readFileSync(new URL('../../fixtures/state-small.json', import.meta.url));
const HOUR = 3_600_000;

describe('auto-destroy-at computed from the activity duration', () => {
  let api: TestApi;
  const attrs = async (id: string) => (await api.get(`${P}/workspaces/${id}`)).body.data.attributes;
  /** Sets the workspace's last activity to `at`, as an old workspace would have it. */
  const activityAt = (id: string, at: string) =>
    api.store.db.updateTable('workspaces').set({ latest_change_at: at }).where('id', '=', id).execute();

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('is null without a duration, and the last activity plus the duration with one', async () => {
    const plain = (await createWorkspace(api, 'acme', { name: 'plain' })).body.data;
    expect(plain.attributes['auto-destroy-at']).toBeNull();

    const ws = (await createWorkspace(api, 'acme', { name: 'timed', 'auto-destroy-activity-duration': '14d' })).body
      .data;
    const created = Date.parse(ws.attributes['latest-change-at']);
    expect(Date.parse(ws.attributes['auto-destroy-at'])).toBe(created + 14 * 24 * HOUR);
  });

  it("follows the project's duration for a workspace that inherits it, and a change of it", async () => {
    const project = await insertProject(api, 'acme', 'Ephemeral', {});
    await api.patch(`${P}/projects/${project}`, {
      data: { type: 'projects', attributes: { 'auto-destroy-activity-duration': '36h' } },
    });
    const ws = (
      await createWorkspace(api, 'acme', { name: 'inherits' }, { project: { data: { type: 'projects', id: project } } })
    ).body.data;
    await activityAt(ws.id, '2026-01-01T00:00:00.000Z');
    expect((await attrs(ws.id))['auto-destroy-at']).toBe('2026-01-02T12:00:00.000Z');

    await api.patch(`${P}/projects/${project}`, {
      data: { type: 'projects', attributes: { 'auto-destroy-activity-duration': '2d' } },
    });
    expect((await attrs(ws.id))['auto-destroy-at']).toBe('2026-01-03T00:00:00.000Z');
  });

  it('moves forward when a new state version is pushed', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'active', 'auto-destroy-activity-duration': '1h' })).body
      .data;
    await activityAt(ws.id, '2026-01-01T00:00:00.000Z');
    expect((await attrs(ws.id))['auto-destroy-at']).toBe('2026-01-01T01:00:00.000Z');

    expect((await api.post(`${P}/workspaces/${ws.id}/actions/lock`, {})).status).toBe(200);
    const pushed = await api.post(`${P}/workspaces/${ws.id}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: 1,
          md5: createHash('md5').update(STATE).digest('hex'),
          state: STATE.toString('base64'),
        },
      },
    });
    expect(pushed.status, pushed.text).toBe(201);
    expect((await api.post(`${P}/workspaces/${ws.id}/actions/unlock`)).status).toBe(200);
    const after = await attrs(ws.id);
    expect(Date.parse(after['latest-change-at'])).toBeGreaterThan(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(Date.parse(after['auto-destroy-at'])).toBe(Date.parse(after['latest-change-at']) + HOUR);
  });

  it('an explicit auto-destroy-at wins; clearing the duration clears the computed time', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'explicit', 'auto-destroy-activity-duration': '3d' })).body
      .data;
    const set = await api.patch(`${P}/workspaces/${ws.id}`, wsBody({ 'auto-destroy-at': '2030-05-01T00:00:00Z' }));
    expect(set.body.data.attributes['auto-destroy-at']).toBe('2030-05-01T00:00:00.000Z');

    await api.patch(`${P}/workspaces/${ws.id}`, wsBody({ 'auto-destroy-at': null }));
    const cleared = await api.patch(`${P}/workspaces/${ws.id}`, wsBody({ 'auto-destroy-activity-duration': null }));
    expect(cleared.body.data.attributes).toMatchObject({
      'auto-destroy-activity-duration': null,
      'auto-destroy-at': null,
    });
  });
});
