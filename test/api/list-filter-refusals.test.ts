import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../helpers/api.js';

/**
 * State and agent pool lists refuse `filter[...]`/`search[...]` parameters and `include` values
 * they do not know (400 naming the parameter), instead of answering with the unfiltered list; what
 * go-tfe sends for each list keeps working.
 */

const P = '/api/v2';
const STATE = readFileSync(new URL('../fixtures/state-module.json', import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('list filter and include refusals (state versions, outputs, resources, agent pools)', () => {
  let api: TestApi;
  let ws: string;
  let sv: string;
  const q = (name: string, value = 'x') => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  async function refused(url: string, parameter: string) {
    const res = await api.get(url);
    expect(res.status, url).toBe(400);
    expect(res.body.errors[0].source, url).toEqual({ parameter });
  }

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    const w = await api.post(`${P}/organizations/acme/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'lists' } },
    });
    expect(w.status).toBe(201);
    ws = w.body.data.id;
    expect((await api.post(`${P}/workspaces/${ws}/actions/lock`, {})).status).toBe(200);
    const created = await api.post(`${P}/workspaces/${ws}/state-versions`, {
      data: { type: 'state-versions', attributes: { serial: 0, md5: md5(STATE), state: STATE.toString('base64') } },
    });
    expect(created.status, created.text).toBe(201);
    sv = created.body.data.id;
    expect((await api.post(`${P}/workspaces/${ws}/actions/unlock`)).status).toBe(200);
  });
  afterAll(() => api.close());

  it('GET /state-versions keeps the two filters go-tfe sends and refuses any other', async () => {
    const base = `${P}/state-versions?${q('filter[organization][name]', 'acme')}&${q('filter[workspace][name]', 'lists')}`;
    const ok = await api.get(base);
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((d: { id: string }) => d.id)).toEqual([sv]);
    await refused(`${base}&${q('filter[workspace][id]')}`, 'filter[workspace][id]');
    await refused(`${base}&${q('search[name]')}`, 'search[name]');
  });

  it('GET /workspaces/:id/state-versions, outputs, current outputs and resources refuse any filter or search', async () => {
    for (const list of [
      `${P}/workspaces/${ws}/state-versions`,
      `${P}/state-versions/${sv}/outputs`,
      `${P}/workspaces/${ws}/current-state-version-outputs`,
      `${P}/workspaces/${ws}/resources`,
    ]) {
      expect((await api.get(`${list}?page[size]=5`)).status, list).toBe(200);
      await refused(`${list}?${q('filter[name]')}`, 'filter[name]');
      await refused(`${list}?${q('search[basic]')}`, 'search[basic]');
    }
  });

  it('GET /organizations/:org/agent-pools keeps what go-tfe sends and refuses the rest', async () => {
    const pool = await api.post(`${P}/organizations/acme/agent-pools`, {
      data: { type: 'agent-pools', attributes: { name: 'builders' } },
    });
    expect(pool.status).toBe(201);
    const list = `${P}/organizations/acme/agent-pools`;
    // go-tfe's AgentPoolListOptions: q, filter[allowed_workspaces][name], filter[allowed_projects][name],
    // include (workspaces, hyok-configurations), sort.
    for (const query of [
      q('q', 'build'),
      q('filter[allowed_workspaces][name]', 'lists'),
      q('filter[allowed_projects][name]', 'Default Project'),
      q('include', 'workspaces'),
      q('include', 'hyok-configurations'),
      q('sort', 'name'),
    ]) {
      const res = await api.get(`${list}?${query}`);
      expect(res.status, query).toBe(200);
    }
    await refused(`${list}?${q('filter[name]', 'builders')}`, 'filter[name]');
    await refused(`${list}?${q('search[name]', 'builders')}`, 'search[name]');
    const include = await api.get(`${list}?include=bogus`);
    expect(include.status).toBe(400);
    expect(include.body.errors[0]).toMatchObject({
      detail: 'Invalid include parameter',
      source: { parameter: 'include' },
    });
  });
});
