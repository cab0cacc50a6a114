import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
const keyBody = (attributes: Record<string, unknown>) => ({ data: { type: 'ssh-keys', attributes } });
const orgBody = (name: string) => ({ data: { type: 'organizations', attributes: { name } } });

// Names that a person types to find a thing are unique regardless of case, as workspace and
// project names are: organizations, and SSH keys within an organization.
describe('names unique regardless of case', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    expect((await api.createOrg('other')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('an organization name in another case is taken (422 at the name), on create and on rename', async () => {
    const res = await api.createOrg('ACME');
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      detail: 'Name has already been taken',
      source: { pointer: '/data/attributes/name' },
    });
    const rename = await api.patch('/api/v2/organizations/other', orgBody('Acme'));
    expect(rename.status).toBe(422);
    expect((await api.get('/api/v2/organizations/other')).status).toBe(200);
    // Lookups stay exact: the name is the organization's id.
    expect((await api.get('/api/v2/organizations/ACME')).status).toBe(404);
  });

  it('an organization may change the case of its own name', async () => {
    const res = await api.patch('/api/v2/organizations/other', orgBody('Other'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe('Other');
  });

  it('an SSH key name is unique in its organization (422), in any case; other organizations may reuse it', async () => {
    const first = await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: 'deploy', value: KEY }));
    expect(first.status).toBe(201);
    const again = await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: 'Deploy', value: KEY }));
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({
      detail: 'Name has already been taken',
      source: { pointer: '/data/attributes/name' },
    });
    expect((await api.get('/api/v2/organizations/acme/ssh-keys')).body.data).toHaveLength(1);
    expect(
      (await api.post('/api/v2/organizations/Other/ssh-keys', keyBody({ name: 'deploy', value: KEY }))).status,
    ).toBe(201);
  });

  it('renaming an SSH key onto another key name is a 422; keeping or recasing its own name is fine', async () => {
    const second = await api.post('/api/v2/organizations/acme/ssh-keys', keyBody({ name: 'backup', value: KEY }));
    const id = second.body.data.id;
    const clash = await api.patch(`/api/v2/ssh-keys/${id}`, keyBody({ name: 'DEPLOY' }));
    expect(clash.status).toBe(422);
    expect((await api.get(`/api/v2/ssh-keys/${id}`)).body.data.attributes.name).toBe('backup');
    expect((await api.patch(`/api/v2/ssh-keys/${id}`, keyBody({ name: 'Backup' }))).status).toBe(200);
  });
});
