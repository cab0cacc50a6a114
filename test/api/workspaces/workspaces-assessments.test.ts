import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionSupportsAssessments } from '../../../src/domain/runs/assessments.js';
import { TestApi } from '../../helpers/api.js';
import { expect422, storeSnapshot, wsBody } from '../../helpers/workspaces.js';

/**
 * Health assessments (hosted edition) exist only for workspaces in remote or agent execution mode
 * on engine version 0.15.4 or later, as HCP Terraform documents; the organization's
 * `assessments-enforced` turns them on for every workspace that qualifies.
 */

const A = '/data/attributes';
const MODE = 'Assessments enabled is only available for workspaces in remote or agent execution mode';
const VERSION = 'Assessments enabled is only available for workspaces using Terraform version 0.15.4 or later';

describe('assessments-enabled (hosted edition)', () => {
  let api: TestApi;
  const create = (attributes: Record<string, unknown>) =>
    api.post('/api/v2/organizations/h/workspaces', wsBody(attributes));
  const patch = (id: string, attributes: Record<string, unknown>) =>
    api.patch(`/api/v2/workspaces/${id}`, wsBody(attributes));

  beforeAll(async () => {
    api = await TestApi.create({ settings: { edition: 'hosted' } });
    expect((await api.createOrg('h')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('is refused for local execution mode and for versions before 0.15.4, changing nothing', async () => {
    await expect422(
      api,
      () => create({ name: 'local', 'assessments-enabled': true, 'execution-mode': 'local' }),
      `${A}/assessments-enabled`,
      MODE,
    );
    await expect422(
      api,
      () => create({ name: 'old', 'assessments-enabled': true, 'terraform-version': '0.15.3' }),
      `${A}/assessments-enabled`,
      VERSION,
    );
    const ws = (await create({ name: 'later', 'terraform-version': '0.14.0' })).body.data;
    const before = await storeSnapshot(api);
    await expect422(api, () => patch(ws.id, { 'assessments-enabled': true }), `${A}/assessments-enabled`, VERSION);
    expect(await storeSnapshot(api)).toEqual(before);
  });

  it("is accepted when the same request makes the workspace qualify (go-tfe's update test)", async () => {
    const ws = (await create({ name: 'upgrade', 'terraform-version': '0.14.0', 'execution-mode': 'local' })).body.data;
    const res = await patch(ws.id, { 'assessments-enabled': true, 'terraform-version': '0.15.4', operations: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes['assessments-enabled']).toBe(true);
  });

  it('reads false while the workspace no longer qualifies, and true again when it does', async () => {
    const ws = (await create({ name: 'toggle', 'assessments-enabled': true })).body.data;
    expect(ws.attributes['assessments-enabled']).toBe(true);
    const local = await patch(ws.id, { 'execution-mode': 'local' });
    expect(local.body.data.attributes['assessments-enabled']).toBe(false);
    const back = await patch(ws.id, { 'execution-mode': 'remote' });
    expect(back.body.data.attributes['assessments-enabled']).toBe(true);
  });

  it("shows the organization's assessments-enforced on every qualifying workspace", async () => {
    const remote = (await create({ name: 'enforced-remote' })).body.data;
    const local = (await create({ name: 'enforced-local', 'execution-mode': 'local' })).body.data;
    expect(remote.attributes['assessments-enabled']).toBe(false);
    await api.patch('/api/v2/organizations/h', {
      data: { type: 'organizations', attributes: { 'assessments-enforced': true } },
    });
    const read = async (id: string) =>
      (await api.get(`/api/v2/workspaces/${id}`)).body.data.attributes['assessments-enabled'];
    expect(await read(remote.id)).toBe(true);
    expect(await read(local.id)).toBe(false);
    await api.patch('/api/v2/organizations/h', {
      data: { type: 'organizations', attributes: { 'assessments-enforced': false } },
    });
    expect(await read(remote.id)).toBe(false);
  });
});

describe('engine versions that can run assessments', () => {
  it.each([
    ['0.15.4', true],
    ['1.13.3', true],
    ['0.15.3', false],
    ['0.15.4-beta1', false],
    ['0.12.31', false],
    ['~> 1.0', true],
    ['~> 0.15.0', true],
    ['~> 0.14.0', false],
    ['< 0.15.4', false],
    ['<= 0.15.4', true],
    ['>= 0.12.0, < 0.15.0', false],
    ['>= 0.12.0', true],
    ['= 0.13.7', false],
  ])('%s: %s', (version, expected) => {
    expect(versionSupportsAssessments(version)).toBe(expected);
  });
});
