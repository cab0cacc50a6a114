import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../helpers/api.js';
import { joinOrganization } from '../helpers/members.js';
import { ISOLATION_CASES } from './isolation-bodies.js';
import { appRoutes, fillPath, paramsOf, realParam, routeKey, type Route } from './routes.js';
import { seedOrganization, type SeededOrg } from './seed.js';

/**
 * Two organizations with full data. Every route of the app is called with organization B's
 * credentials (the owner's user token, a user in B's team, B's organization token, B's team
 * token) at organization A's resources: each answers 404, and no answer contains an id, name,
 * token or other value of A that the request did not itself send.
 */
describe('tenant isolation between two organizations', () => {
  let api: TestApi;
  let a: SeededOrg;
  let b: SeededOrg;
  let routes: Route[];
  let member: string;
  const viewOfA = async () => {
    const t = { token: a.ownerToken };
    const paths = [
      `/api/v2/organizations/${a.org}/workspaces?include=effective_tag_bindings`,
      `/api/v2/organizations/${a.org}/projects?include=effective_tag_bindings`,
      `/api/v2/organizations/${a.org}/teams`,
      `/api/v2/organizations/${a.org}/ssh-keys`,
      `/api/v2/organizations/${a.org}/tags`,
      `/api/v2/workspaces/${a.workspaceId}/relationships/remote-state-consumers`,
      `/api/v2/workspaces/${a.workspaceId}/relationships/tags`,
      `/api/v2/workspaces/${a.workspaceId}/run-triggers?filter[run-trigger][type]=inbound`,
      `/api/v2/run-triggers/${a.runTriggerId}`,
      `/api/v2/workspaces/${a.workspaceId}/state-versions`,
      `/api/v2/workspaces/${a.workspaceId}/runs`,
      `/api/v2/team-projects?filter[project][id]=${a.projectId}`,
      `/api/v2/team-workspaces?filter[workspace][id]=${a.workspaceId}`,
      `/api/v2/users/${a.ownerUserId}/authentication-tokens`,
      `/api/v2/organizations/${a.org}/organization-memberships?include=user,teams`,
      `/api/v2/teams/${a.teamId}?include=users,organization-memberships`,
      `/api/v2/workspaces/${a.runnerWorkspaceId}?include=locked_by`,
      `/api/v2/workspaces/${a.runnerWorkspaceId}/configuration-versions`,
      `/api/v2/runs/${a.executedRunId}`,
      `/api/v2/plans/${a.planId}`,
      `/api/v2/applies/${a.applyId}`,
    ];
    // Hosted-state URLs are signed anew at each read, with an expiry that moves with the clock.
    const unsigned = (text: string) =>
      text
        .replace(/expires=\d+&signature=[\w-]+/g, 'expires=…&signature=…')
        .replace(/(\/run-logs\/[\w-]+)\/\d+\/[\w-]+/g, '$1/…/…');
    return Promise.all(paths.map(async (p) => unsigned((await api.get(p, t)).text)));
  };

  beforeAll(async () => {
    api = await TestApi.create();
    a = await seedOrganization(api, 'acme');
    b = await seedOrganization(api, 'globex');
    routes = appRoutes(api);
    // A user who is only in B's (non-owner) team.
    const user = await api.userToken('globex-extra');
    await joinOrganization(api, b.org, 'globex-extra', user.token, b.ownerToken);
    const add = await api.post(
      `/api/v2/teams/${b.teamId}/relationships/users`,
      { data: [{ type: 'users', id: 'globex-extra' }] },
      { token: b.ownerToken },
    );
    expect(add.status, add.text).toBe(204);
    member = user.token;
  });
  afterAll(() => api.close());

  /** Every string value of A (ids, names, tokens, keys), longest first. */
  const secretsOfA = () =>
    [...new Set(Object.values(a).filter((v): v is string => typeof v === 'string')), `${a.org} web description`].sort(
      (x, y) => y.length - x.length,
    );

  it('the case table covers every route the app registers, and nothing else', () => {
    expect(routes.map(routeKey).filter((k) => !(k in ISOLATION_CASES))).toEqual([]);
    expect(Object.keys(ISOLATION_CASES).filter((k) => !routes.some((r) => routeKey(r) === k))).toEqual([]);
  });

  for (const actor of ['owner of B', 'member of a team of B', "B's organization token", "B's team token"] as const) {
    it(`with ${actor}: every route at A's resources answers 404 and leaks nothing of A`, async () => {
      const token = {
        'owner of B': b.ownerToken,
        'member of a team of B': member,
        "B's organization token": b.organizationToken,
        "B's team token": b.teamToken,
      }[actor];
      const before = await viewOfA();
      const failures: string[] = [];
      for (const route of routes) {
        const c = ISOLATION_CASES[routeKey(route)];
        const path =
          fillPath(
            route.path,
            (c.params?.(a, b) ?? paramsOf(route.path).map((p) => realParam(p, a))).map(encodeURIComponent),
          ) + (c.query?.(a) ?? '');
        const body = c.body?.(a, b);
        const res = await api.request(route.method, path, { body, token });
        const sent = path + (body === undefined ? '' : JSON.stringify(body));
        const leaked = secretsOfA().filter((s) => !sent.includes(s) && res.text.includes(s));
        if (c.expect === 404 && res.status !== 404)
          failures.push(`${routeKey(route)}: ${res.status} ${res.text.slice(0, 200)}`);
        if (c.expect === 'own' && res.status >= 500) failures.push(`${routeKey(route)}: ${res.status}`);
        if (leaked.length > 0)
          failures.push(`${routeKey(route)} leaks ${leaked.join(', ')}: ${res.text.slice(0, 200)}`);
        if (res.status === 404 && (!Array.isArray(res.body?.errors) || res.body.errors[0]?.status !== '404'))
          failures.push(`${routeKey(route)}: 404 without an error document`);
      }
      expect(failures).toEqual([]);
      expect(await viewOfA()).toEqual(before);
    });
  }
});
