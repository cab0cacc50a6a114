import { expect } from 'vitest';
import type { TestApi } from './api.js';

/**
 * Makes a user (made by `api.userToken`, so with email USERNAME@example.com) an active member of
 * an organization: an owner (or the site administrator) invites them, and they accept with their
 * own token. Returns the membership id. Only members can be put in teams.
 */
export async function joinOrganization(
  api: TestApi,
  org: string,
  username: string,
  userToken: string,
  inviterToken?: string,
): Promise<string> {
  const invited = await api.post(
    `/api/v2/organizations/${org}/organization-memberships`,
    { data: { type: 'organization-memberships', attributes: { email: `${username}@example.com` } } },
    { token: inviterToken },
  );
  expect(invited.status, invited.text).toBe(201);
  const id = invited.body.data.id as string;
  const accepted = await api.post(`/api/v2/organization-memberships/${id}/actions/accept`, undefined, {
    token: userToken,
  });
  expect(accepted.status, accepted.text).toBe(200);
  return id;
}
