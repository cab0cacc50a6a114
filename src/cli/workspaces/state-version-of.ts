import type { Resource } from '../../client/jsonapi.js';
import type { StateVersionAttributes } from '../../client/resources.js';
import type { WorkspaceStateClient } from '../../client/state.js';
import { notFound } from '../../domain/common/errors.js';

/**
 * A state version (`sv-…`) given on the command line, when it is one of the workspace's: another
 * workspace's is refused as the API refuses it (404, exit 3), naming the workspace as it was given.
 */
export async function stateVersionOf(
  state: WorkspaceStateClient,
  workspaceId: string,
  workspace: string,
  versionId: string,
): Promise<Resource<StateVersionAttributes>> {
  const sv = await state.stateVersion(versionId);
  const owner = sv.relationships?.workspace?.data;
  if (!owner || Array.isArray(owner) || owner.id !== workspaceId)
    throw notFound(`state version ${versionId} is not a state version of workspace ${workspace}`);
  return sv;
}
