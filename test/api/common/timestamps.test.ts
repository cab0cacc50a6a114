import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../src/domain/common/timestamp.js';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, expect422 } from '../../helpers/workspaces.js';

/**
 * Regression: impossible calendar dates (2024-02-31, hour 24) used to be accepted and silently
 * rolled over by `Date` (2024-02-31 stored as 2024-03-02). They are a 422 now, and nothing is stored.
 */
describe('timestamps must name a real instant', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
  });
  afterAll(() => api.close());

  it('parseTimestamp refuses dates and times that do not exist, and normalises the rest to UTC', () => {
    for (const bad of [
      '2024-02-31T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T10:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T23:60:00Z',
      '2024-01-01T23:59:60Z',
      '2024-13-01T00:00:00Z',
      '2024-00-10T00:00:00Z',
      '2024-01-01T00:00:00+25:00',
      'tomorrow',
      '2024-01-01',
    ]) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
    expect(parseTimestamp('2024-02-29T12:00:00Z')).toBe('2024-02-29T12:00:00.000Z');
    expect(parseTimestamp('2030-01-01T01:30:00+02:00')).toBe('2029-12-31T23:30:00.000Z');
    expect(parseTimestamp('2024-06-01T00:00Z')).toBe('2024-06-01T00:00:00.000Z');
  });

  it('workspace auto-destroy-at 2124-02-31 is a 422 at its pointer and stores nothing; 2124-02-29 is kept as given', async () => {
    await expect422(
      api,
      () =>
        api.post('/api/v2/organizations/acme/workspaces', {
          data: { type: 'workspaces', attributes: { name: 'feb', 'auto-destroy-at': '2124-02-31T00:00:00Z' } },
        }),
      '/data/attributes/auto-destroy-at',
    );
    const ws = await createWorkspace(api, 'acme', { name: 'leap', 'auto-destroy-at': '2124-02-29T00:00:00Z' });
    expect(ws.body.data.attributes['auto-destroy-at']).toBe('2124-02-29T00:00:00.000Z');
  });

  it('a run report at 2024-02-30 is a 422 and leaves the run as it was', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'runs' })).body.data.id;
    const run = await api.post('/api/v2/runs', {
      data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
    });
    expect(run.status, run.text).toBe(201);
    const path = `/api/v2/runs/${run.body.data.id}/actions/report`;
    const bad = await api.post(path, {
      data: { type: 'run-reports', attributes: { status: 'planning', at: '2024-02-30T10:00:00Z' } },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/attributes/at' } });
    expect((await api.get(`/api/v2/runs/${run.body.data.id}`)).body.data.attributes.status).toBe(
      run.body.data.attributes.status,
    );
    const good = await api.post(path, {
      data: { type: 'run-reports', attributes: { status: 'planning', at: '2024-02-29T10:00:00Z' } },
    });
    expect(good.status, good.text).toBe(200);
  });
});
