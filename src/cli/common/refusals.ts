import type { Resource } from '../../client/jsonapi.js';
import { forbidden, notAuthorized } from '../../domain/common/errors.js';

/**
 * Refuses, before any prompt or announcement, what a resource's `permissions` say the caller may
 * not do, with the answer the API itself would give: a 404 (exit 3) for most refusals, a 403
 * (exit 6) where the API answers 403 (force delete of a workspace, delete of a project). A
 * resource without the permission (an older server) is left to the API.
 */
export function refuseUnlessPermitted(
  resource: Resource,
  permission: string,
  refusal: { status: 403 | 404; action: string },
): void {
  const permissions = resource.attributes.permissions as Record<string, unknown> | undefined;
  if (permissions?.[permission] !== false) return;
  throw refusal.status === 403 ? forbidden(`not authorized to ${refusal.action}`) : notAuthorized(refusal.action);
}
