import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_FLAT_TAGS_PER_WORKSPACE,
  MAX_TRIGGER_ENTRIES,
  TEXT_LIMITS as L,
} from '../../../src/domain/common/limits.js';
import { TestApi, type ApiResponse } from '../../helpers/api.js';

/**
 * Every free-text attribute has a length limit in characters (code points) and list attributes a
 * number of entries (issue 19: a 1,000,000-character description fitted the body, and 100 of them
 * made a 100 MB page). Beyond a limit: a 422 whose pointer names the attribute, and no change.
 */
const over = (n: number) => 'x'.repeat(n + 1);
/** `n` characters that are two UTF-16 units each: the limit counts characters, not units. */
const emoji = (n: number) => '\u{1F600}'.repeat(n);

function expectTooLong(res: ApiResponse, pointer: string, max: number) {
  expect(res.status, res.text).toBe(422);
  expect(res.body.errors).toContainEqual(
    expect.objectContaining({
      status: '422',
      source: { pointer },
      detail: expect.stringContaining(`maximum is ${max}`),
    }),
  );
}

describe('length limits of free-text attributes', () => {
  let api: TestApi;
  let wsId: string;
  let oauthTokenId: string;
  const ws = (attributes: Record<string, unknown>) => ({ data: { type: 'workspaces', attributes } });

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    const created = await api.post('/api/v2/organizations/acme/workspaces', ws({ name: 'app', description: 'kept' }));
    wsId = created.body.data.id;
    const oauth = await api.post('/api/v2/organizations/acme/oauth-tokens', {
      data: { type: 'oauth-tokens', attributes: { 'service-provider': 'github' } },
    });
    oauthTokenId = oauth.body.data.id;
  });
  afterAll(() => api.close());

  const workspaceTexts: [string, number][] = [
    ['description', L.workspaceDescription],
    ['working-directory', L.workingDirectory],
    ['terraform-version', L.terraformVersion],
  ];

  it.each(workspaceTexts)('workspace %s: at most %i characters, else 422 and nothing changes', async (attr, max) => {
    const before = await api.get(`/api/v2/workspaces/${wsId}`);
    const res = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ [attr]: over(max) }));
    expectTooLong(res, `/data/attributes/${attr}`, max);
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.attributes).toEqual(before.body.data.attributes);
  });

  it('counts characters, not UTF-16 units: a description of the maximum number of emoji is accepted', async () => {
    const res = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ description: emoji(L.workspaceDescription) }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes.description).toBe(emoji(L.workspaceDescription));
    expectTooLong(
      await api.patch(`/api/v2/workspaces/${wsId}`, ws({ description: emoji(L.workspaceDescription + 1) })),
      '/data/attributes/description',
      L.workspaceDescription,
    );
  });

  it('refuses control characters and unpaired surrogates in texts, which JSON would send as six bytes each', async () => {
    for (const bad of ['a\u0001b', 'a\u007fb', 'a\ud800b']) {
      const res = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ description: bad }));
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/description');
    }
    const multiLine = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ description: 'line one\n\tline two\r\n' }));
    expect(multiLine.status, multiLine.text).toBe(200);
  });

  it('source-name and source-url are limited on create', async () => {
    const create = (attributes: Record<string, unknown>) =>
      api.post('/api/v2/organizations/acme/workspaces', ws({ name: 'sourced', ...attributes }));
    expectTooLong(await create({ 'source-name': over(L.sourceName) }), '/data/attributes/source-name', L.sourceName);
    expectTooLong(
      await create({ 'source-url': `https://${over(L.sourceUrl)}` }),
      '/data/attributes/source-url',
      L.sourceUrl,
    );
    expect((await api.get('/api/v2/organizations/acme/workspaces/sourced')).status).toBe(404);
    const ok = await create({ 'source-name': 'x'.repeat(L.sourceName), 'source-url': 'https://example.com/x' });
    expect(ok.status, ok.text).toBe(201);
  });

  it('trigger-prefixes and trigger-patterns: each entry and the number of entries are limited', async () => {
    for (const attr of ['trigger-prefixes', 'trigger-patterns']) {
      expectTooLong(
        await api.patch(`/api/v2/workspaces/${wsId}`, ws({ [attr]: ['ok', over(L.triggerEntry)] })),
        `/data/attributes/${attr}/1`,
        L.triggerEntry,
      );
      const many = Array.from({ length: MAX_TRIGGER_ENTRIES + 1 }, (_, i) => `/dir${i}`);
      const res = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ [attr]: many }));
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        source: { pointer: `/data/attributes/${attr}` },
        detail: expect.stringContaining(`at most ${MAX_TRIGGER_ENTRIES} entries`),
      });
      const full = await api.patch(`/api/v2/workspaces/${wsId}`, ws({ [attr]: many.slice(1) }));
      expect(full.status, full.text).toBe(200);
      expect(full.body.data.attributes[attr]).toHaveLength(MAX_TRIGGER_ENTRIES);
    }
  });

  it('vcs-repo fields are limited', async () => {
    const repo = (r: Record<string, unknown>) =>
      api.patch(
        `/api/v2/workspaces/${wsId}`,
        ws({ 'vcs-repo': { identifier: 'acme/app', 'oauth-token-id': oauthTokenId, ...r } }),
      );
    expectTooLong(await repo({ branch: over(L.vcsBranch) }), '/data/attributes/vcs-repo/branch', L.vcsBranch);
    expectTooLong(
      await repo({ identifier: `acme/${over(L.vcsIdentifier)}` }),
      '/data/attributes/vcs-repo/identifier',
      L.vcsIdentifier,
    );
    expectTooLong(
      await repo({ 'tags-regex': over(L.vcsTagsRegex) }),
      '/data/attributes/vcs-repo/tags-regex',
      L.vcsTagsRegex,
    );
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.attributes['vcs-repo']).toBeNull();
  });

  it('a lock reason is limited, in both body shapes', async () => {
    expectTooLong(
      await api.post(`/api/v2/workspaces/${wsId}/actions/lock`, { reason: over(L.lockReason) }),
      '/reason',
      L.lockReason,
    );
    expectTooLong(
      await api.post(`/api/v2/workspaces/${wsId}/actions/lock`, {
        data: { type: 'workspaces', attributes: { reason: over(L.lockReason) } },
      }),
      '/data/attributes/reason',
      L.lockReason,
    );
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.attributes.locked).toBe(false);
  });

  it(`a workspace carries at most ${MAX_FLAT_TAGS_PER_WORKSPACE} flat tags; a request beyond adds none`, async () => {
    const tags = (from: number, n: number) => ({
      data: Array.from({ length: n }, (_, i) => ({ type: 'tags', attributes: { name: `tag-${from + i}` } })),
    });
    const path = `/api/v2/workspaces/${wsId}/relationships/tags`;
    expect((await api.post(path, tags(0, MAX_FLAT_TAGS_PER_WORKSPACE - 1))).status).toBe(204);
    const res = await api.post(path, tags(1000, 2));
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data');
    const listed = await api.get(`${path}?page%5Bsize%5D=100`);
    expect(listed.body.data).toHaveLength(MAX_FLAT_TAGS_PER_WORKSPACE - 1);
    // The refused request created no organization tag either.
    const org = await api.get('/api/v2/organizations/acme/tags?q=tag-100');
    expect(org.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).not.toContain('tag-1000');
    expect((await api.post(path, tags(1000, 1))).status).toBe(204);
    // Adding a workspace to a tag's workspaces counts too.
    const other = await api.post('/api/v2/organizations/acme/workspaces', ws({ name: 'other' }));
    expect((await api.post(`/api/v2/workspaces/${other.body.data.id}/relationships/tags`, tags(2000, 1))).status).toBe(
      204,
    );
    const extra = (await api.get('/api/v2/organizations/acme/tags?q=tag-2000')).body.data[0].id as string;
    const res2 = await api.post(`/api/v2/tags/${extra}/relationships/workspaces`, {
      data: [{ type: 'workspaces', id: wsId }],
    });
    expect(res2.status, res2.text).toBe(422);
    expect(res2.body.errors[0]).toMatchObject({ source: { pointer: '/data/0/id' } });
    expect((await api.get(`${path}?page%5Bsize%5D=100`)).body.data).toHaveLength(MAX_FLAT_TAGS_PER_WORKSPACE);
  });

  it('organization email, OAuth token name and token descriptions are limited', async () => {
    const org = await api.patch('/api/v2/organizations/acme', {
      data: { type: 'organizations', attributes: { email: `${'x'.repeat(L.email)}@example.com` } },
    });
    expect(org.status, org.text).toBe(422);
    expect(org.body.errors[0].source.pointer).toBe('/data/attributes/email');
    expectTooLong(
      await api.post('/api/v2/organizations/acme/oauth-tokens', {
        data: { type: 'oauth-tokens', attributes: { name: over(L.oauthTokenName) } },
      }),
      '/data/attributes/name',
      L.oauthTokenName,
    );
    const { userId, token } = await api.userToken('alice');
    const description = {
      data: { type: 'authentication-tokens', attributes: { description: over(L.tokenDescription) } },
    };
    for (const path of [
      `/api/v2/users/${userId}/authentication-tokens`,
      '/api/v2/organizations/acme/authentication-token',
      '/api/v2/admin/authentication-tokens',
    ]) {
      const res = await api.post(path, description, path.startsWith('/api/v2/users') ? { token } : {});
      expectTooLong(res, '/data/attributes/description', L.tokenDescription);
    }
    const teams = await api.get('/api/v2/organizations/acme/teams');
    const owners = teams.body.data[0].id;
    expectTooLong(
      await api.post(`/api/v2/teams/${owners}/authentication-tokens`, description),
      '/data/attributes/description',
      L.tokenDescription,
    );
  });

  it('run messages are limited', async () => {
    const res = await api.post('/api/v2/runs', {
      data: {
        type: 'runs',
        attributes: { message: over(L.runMessage) },
        relationships: { workspace: { data: { type: 'workspaces', id: wsId } } },
      },
    });
    expectTooLong(res, '/data/attributes/message', L.runMessage);
    expect((await api.get(`/api/v2/workspaces/${wsId}/runs`)).body.data).toEqual([]);
  });
});
