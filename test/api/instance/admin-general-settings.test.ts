import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, wsBody } from '../../helpers/workspaces.js';

const PATH = '/api/v2/admin/general-settings';
const body = (attributes: Record<string, unknown>, type = 'general-settings') => ({ data: { type, attributes } });

/**
 * Terraform Enterprise's `/admin/general-settings`, as far as berth has them: the spec's "on the
 * self-hosted edition an administrator can choose the default [of global-remote-state] for new
 * workspaces when omitted", defaulting to true as Terraform Enterprise does (the tfe provider's
 * `tfe_admin_settings_general` documents `default_remote_state_access` with default true).
 */
describe('admin general settings: default-remote-state-access', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it("reads true by default (Terraform Enterprise's default), and new workspaces that omit global-remote-state follow", async () => {
    const res = await api.get(PATH);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 'general',
      type: 'general-settings',
      attributes: { 'default-remote-state-access': true },
    });
    const ws = (await createWorkspace(api, 'acme', { name: 'before' })).body.data;
    expect(ws.attributes['global-remote-state']).toBe(true);
    const explicit = (await createWorkspace(api, 'acme', { name: 'private', 'global-remote-state': false })).body.data;
    expect(explicit.attributes['global-remote-state']).toBe(false);
  });

  it('a site administrator sets it (as go-tfe sends it: untyped, other settings null); new workspaces that omit it follow', async () => {
    const res = await api.patch(
      PATH,
      body({ 'default-remote-state-access': false, 'apply-timeout': null, 'plan-timeout': null }, ''),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes['default-remote-state-access']).toBe(false);
    expect((await api.get(PATH)).body.data.attributes['default-remote-state-access']).toBe(false);
    const omitted = (await createWorkspace(api, 'acme', { name: 'after' })).body.data;
    expect(omitted.attributes['global-remote-state']).toBe(false);
    const explicit = (await createWorkspace(api, 'acme', { name: 'explicit', 'global-remote-state': true })).body.data;
    expect(explicit.attributes['global-remote-state']).toBe(true);
    // Existing workspaces keep theirs; an update that omits it changes nothing.
    const before = (await api.get('/api/v2/organizations/acme/workspaces/before')).body.data;
    expect(before.attributes['global-remote-state']).toBe(true);
    const patched = await api.patch(`/api/v2/workspaces/${explicit.id}`, wsBody({ description: 'x' }));
    expect(patched.body.data.attributes['global-remote-state']).toBe(true);
    expect((await api.patch(PATH, body({ 'default-remote-state-access': true }))).status).toBe(200);
    const back = (await createWorkspace(api, 'acme', { name: 'back' })).body.data;
    expect(back.attributes['global-remote-state']).toBe(true);
  });

  it('refuses a bad value (422, nothing changed) and a wrong type (422)', async () => {
    const bad = await api.patch(PATH, body({ 'default-remote-state-access': 'yes' }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/default-remote-state-access');
    const wrongType = await api.patch(PATH, body({ 'default-remote-state-access': false }, 'workspaces'));
    expect(wrongType.status).toBe(422);
    expect((await api.get(PATH)).body.data.attributes['default-remote-state-access']).toBe(true);
  });

  it('is a 404 for anyone but a site administrator', async () => {
    const { token } = await api.userToken('plain');
    expect((await api.get(PATH, { token })).status).toBe(404);
    expect((await api.patch(PATH, body({ 'default-remote-state-access': false }), { token })).status).toBe(404);
    expect((await api.get(PATH)).body.data.attributes['default-remote-state-access']).toBe(true);
  });

  it('does not exist in the hosted edition (404), where new workspaces keep the spec default', async () => {
    const hosted = await TestApi.create({ settings: { edition: 'hosted' } });
    try {
      expect((await hosted.get(PATH)).status).toBe(404);
      expect((await hosted.patch(PATH, body({ 'default-remote-state-access': true }))).status).toBe(404);
      await hosted.createOrg('h');
      const ws = (await createWorkspace(hosted, 'h', { name: 'w' })).body.data;
      expect(ws.attributes['global-remote-state']).toBe(false);
    } finally {
      await hosted.close();
    }
  });
});
