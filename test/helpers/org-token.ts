import { newId } from '../../src/domain/common/ids.js';
import { generateToken, hashToken } from '../../src/domain/identity/token.js';
import type { TestApi } from './api.js';
import { orgId } from './workspaces.js';

/** An organization API token (its endpoint is a later issue): inserted directly. */
export async function createOrganizationToken(api: TestApi, org: string): Promise<string> {
  const token = generateToken();
  await api.store.db
    .insertInto('tokens')
    .values({
      id: newId('at'),
      kind: 'organization',
      token_hash: hashToken(token),
      user_id: null,
      team_id: null,
      organization_id: await orgId(api, org),
      description: 'tests',
      created_at: new Date().toISOString(),
      last_used_at: null,
    })
    .execute();
  return token;
}
