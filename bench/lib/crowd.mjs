// The crowded tenant of bench/tenant-fairness.mjs (issue 32, item 2): an ordinary user fills an
// organization with teams and invitations through the API, within every limit, so that its pages
// of memberships and its teams' member lists are as large as the limits let them be.
import { TOKENS, ok } from './hostile.mjs';

/**
 * Sets up the crowded tenant on a running `serve` (`url`, a site-administrator `adminToken`): a
 * user with TOKENS tokens, its organization, `teams` teams and `invites` invitations of made-up
 * emails, each into every team. Returns the tokens, the organization and the team ids.
 */
export async function setUpCrowd(url, adminToken, { teams: teamCount, invites }) {
  const suffix = Math.random().toString(36).slice(2, 8);
  const user = await ok(url, adminToken, 'POST', '/api/v2/admin/users', {
    data: { type: 'users', attributes: { username: `crowd-${suffix}`, email: `crowd-${suffix}@example.test` } },
  });
  const tokens = [];
  for (let i = 0; i < TOKENS; i++) {
    const t = await ok(url, adminToken, 'POST', `/api/v2/users/${user.json.data.id}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: { description: `crowd ${i}` } },
    });
    tokens.push(t.json.data.attributes.token);
  }
  const org = `crowd-${suffix}`;
  await ok(url, tokens[0], 'POST', '/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: `${org}@example.test` } },
  });
  // Set-up from every token at once: the rate limit is per token.
  const each = async (count, work) => {
    let next = 0;
    await Promise.all(
      tokens.map(async (token) => {
        for (let i = next++; i < count; i = next++) await work(token, i);
      }),
    );
  };
  const teamIds = [];
  await each(teamCount, async (token, i) => {
    const team = await ok(url, token, 'POST', `/api/v2/organizations/${org}/teams`, {
      data: { type: 'teams', attributes: { name: `team-${String(i).padStart(3, '0')}`, visibility: 'organization' } },
    });
    teamIds[i] = team.json.data.id;
  });
  const teams = { data: teamIds.map((id) => ({ type: 'teams', id })) };
  await each(invites, async (token, i) => {
    await ok(url, token, 'POST', `/api/v2/organizations/${org}/organization-memberships`, {
      data: {
        type: 'organization-memberships',
        attributes: { email: `made-up-${String(i).padStart(4, '0')}@${suffix}.example.test` },
        relationships: { teams },
      },
    });
  });
  return { tokens, org, teamIds };
}
