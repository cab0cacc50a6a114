import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken, sameHash } from '../../../src/domain/identity/token.js';
import { authenticate } from '../../../src/services/identity/tokens.js';
import { TestApi } from '../../helpers/api.js';

// The real timingSafeEqual, watched: sameHash must go through it (a constant-time comparison).
const watched = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual: typeof real.timingSafeEqual = (a, b) => {
    watched.calls += 1;
    return real.timingSafeEqual(a, b);
  };
  return { ...real, default: { ...real, timingSafeEqual }, timingSafeEqual };
});

describe('API tokens at rest and in use', () => {
  let api: TestApi;
  const minted: { kind: string; id: string; token: string }[] = [];

  beforeAll(async () => {
    api = await TestApi.create();
    minted.push({ kind: 'site-admin', id: '', token: api.adminToken });
    const olga = await api.userToken('olga');
    expect((await api.createOrg('acme', olga.token)).status).toBe(201);
    const viaApi = async (kind: string, path: string, token: string) => {
      const res = await api.post(path, undefined, { token });
      expect(res.status).toBe(201);
      minted.push({ kind, id: res.body.data.id, token: res.body.data.attributes.token });
    };
    await viaApi('user', `/api/v2/users/${olga.userId}/authentication-tokens`, olga.token);
    await viaApi('site-admin', '/api/v2/admin/authentication-tokens', api.adminToken);
    await viaApi('organization', '/api/v2/organizations/acme/authentication-token', olga.token);
    const teams = await api.get('/api/v2/organizations/acme/teams', { token: olga.token });
    const owners = teams.body.data.find((t: any) => t.attributes.name === 'owners').id;
    await viaApi('team', `/api/v2/teams/${owners}/authentication-token`, olga.token);
  });
  afterAll(() => api.close());

  it('stores only the SHA-256 hash of each token: no column of the tokens table holds a secret', async () => {
    expect(minted.map((m) => m.kind).sort()).toEqual(['organization', 'site-admin', 'site-admin', 'team', 'user']);
    for (const m of minted) expect(m.token).toMatch(/^berth\.[A-Za-z0-9]+\.[A-Za-z0-9]+$/);
    const rows = (await api.store.db.selectFrom('tokens').selectAll().execute()) as Record<string, unknown>[];
    const stored = rows.flatMap((r) => Object.values(r)).filter((v): v is string => typeof v === 'string');
    for (const m of minted) {
      const secret = m.token.split('.')[2];
      expect(stored.some((v) => v.includes(secret))).toBe(false);
      const expected = createHash('sha256').update(m.token).digest('hex');
      expect(rows.filter((r) => r.token_hash === expected)).toHaveLength(1);
    }
    // And the API never shows a token again after the response that created it.
    const listed = await api.get(
      `/api/v2/users/${(rows.find((r) => r.kind === 'user') as any).user_id}/authentication-tokens`,
    );
    expect(listed.status).toBe(200);
    for (const t of listed.body.data) expect(t.attributes.token ?? null).toBeNull();
  });

  it('compares hashes in constant time (timingSafeEqual), and only equal hashes match', async () => {
    const h = hashToken('berth.a.b');
    const before = watched.calls;
    expect(sameHash(h, h)).toBe(true);
    expect(watched.calls).toBe(before + 1);
    expect(sameHash(h, hashToken('berth.a.c'))).toBe(false);
    expect(sameHash(h, h.slice(0, 62))).toBe(false);
    expect(sameHash(h, '')).toBe(false);
    // Authentication goes through it too.
    const calls = watched.calls;
    expect(await authenticate(api.store.db, api.adminToken)).not.toBeNull();
    expect(watched.calls).toBeGreaterThan(calls);
    expect(await authenticate(api.store.db, `${api.adminToken}x`)).toBeNull();
  });

  it('refuses a revoked token on the very next request', async () => {
    const user = minted.find((m) => m.kind === 'user')!;
    expect((await api.get('/api/v2/whoami', { token: user.token })).status).toBe(200);
    expect((await api.delete(`/api/v2/authentication-tokens/${user.id}`, { token: user.token })).status).toBe(204);
    const after = await api.get('/api/v2/whoami', { token: user.token });
    expect(after.status).toBe(401);
    expect(after.body.errors[0]).toMatchObject({ status: '401', title: 'unauthorized' });

    const org = minted.find((m) => m.kind === 'organization')!;
    expect((await api.get('/api/v2/organizations/acme', { token: org.token })).status).toBe(200);
    expect((await api.delete('/api/v2/organizations/acme/authentication-token')).status).toBe(204);
    expect((await api.get('/api/v2/organizations/acme', { token: org.token })).status).toBe(401);
  });
});
