import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const JSONAPI = 'application/vnd.api+json';

describe('meta endpoints', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
  });
  afterAll(() => api.close());

  it('answers GET /api/v2/ping with 204 and the version headers, without a token', async () => {
    const res = await api.get('/api/v2/ping', { token: null });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('TFP-API-Version')).toBeTruthy();
    expect(res.headers.get('TFP-AppName')).toBeTruthy();
    // No X-TFE-Version (the CLI would parse it as a TFE release; docs/api.md "Structured run output").
    expect(res.headers.has('X-TFE-Version')).toBe(false);
    expect(res.headers.get('X-Berth-Version')).toBeTruthy();
    expect(res.headers.has('X-RateLimit-Limit')).toBe(false);
  });

  it('answers ping with a token too', async () => {
    const res = await api.get('/api/v2/ping');
    expect(res.status).toBe(204);
    expect(res.headers.get('TFP-API-Version')).toBeTruthy();
  });

  it('says Cache-Control: no-store on authenticated answers, errors included', async () => {
    for (const path of ['/api/v2/organizations', '/api/v2/account/details', '/api/v2/organizations/nope']) {
      const res = await api.get(path);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('serves service discovery as plain application/json', async () => {
    const res = await api.get('/.well-known/terraform.json', { token: null });
    expect(res.status).toBe(200);
    const type = res.headers.get('Content-Type') ?? '';
    expect(type.startsWith('application/json')).toBe(true);
    expect(type).not.toContain('vnd.api');
    expect(res.body).toMatchObject({ 'tfe.v2': '/api/v2/', 'tfe.v2.1': '/api/v2/', 'tfe.v2.2': '/api/v2/' });
  });

  it('answers an unknown route under /api/v2 with a JSON:API 404', async () => {
    const res = await api.get('/api/v2/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toBe(JSONAPI);
    expect(res.body.errors[0].status).toBe('404');
    expect(res.body.errors[0].title).toBe('not found');
  });

  it('answers an unknown method on a known path with a JSON:API 404', async () => {
    const res = await api.request('PUT', '/api/v2/organizations', { body: { data: { type: 'organizations' } } });
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toBe(JSONAPI);
    expect(res.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
  });
});
