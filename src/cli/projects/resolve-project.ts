import { findProjectByName, getProject, listAllProjects } from '../../client/projects.js';
import { notFoundWithSuggestions } from '../../client/suggest.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import type { ProjectAttributes } from '../../client/resources.js';
import { usageError } from '../common/prompts.js';

const PROJECT_ID = /^prj-[A-Za-z0-9]{16}$/;

/**
 * PROJECT arguments: a `prj-` id, or a project name in `org` (looked up with `filter[names]`).
 * A name without an organization is a usage error; an unknown one a 404 (exit code 3).
 */
export async function resolveProject(
  client: BerthClient,
  ref: string,
  org: string | undefined,
): Promise<Resource<ProjectAttributes>> {
  if (PROJECT_ID.test(ref)) return (await getProject(client, ref)).data;
  if (!org)
    throw usageError(
      `"${ref}" is not a project id (prj-...); to find a project by name pass --org NAME or set BERTH_ORG`,
    );
  const found = await findProjectByName(client, org, ref);
  if (!found)
    throw notFoundWithSuggestions(
      'project',
      ref,
      org,
      (await listAllProjects(client, org)).map((p) => String(p.attributes.name)),
    );
  return found;
}
