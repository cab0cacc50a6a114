import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { BerthError } from '../../domain/common/errors.js';

/**
 * The name of the workspace a data retention policy is set on, for human output (an
 * organization's policy names its organization already); null when it is not a workspace's or
 * cannot be read.
 */
export async function retentionTargetName(client: BerthClient, policy: Resource): Promise<string | null> {
  const target = policy.relationships?.target?.data;
  if (!target || Array.isArray(target) || target.type !== 'workspaces') return null;
  try {
    return String((await new WorkspacesClient(client).get({ id: target.id })).data.attributes.name);
  } catch (err) {
    if (err instanceof BerthError) return null;
    throw err;
  }
}
