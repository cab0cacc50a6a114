import { describe, expect, it } from 'vitest';
import { ago, duration } from '../../src/console/components/common.js';
import { runDurations } from '../../src/console/components/run-chart.js';
import type { Resource, RunAttributes, VariableAttributes } from '../../src/console/jsonapi.js';
import { mayReadAuditTrail } from '../../src/console/components/layout.js';
import { auditPath, isActorId, isWorkspaceId, memberLookupPath, userIdNamed } from '../../src/console/pages/audit.js';
import { outputText } from '../../src/console/pages/workspace/outputs-card.js';
import { shownRunId } from '../../src/console/pages/workspace/runs/run-format.js';
import { startRunBody } from '../../src/console/pages/workspace/runs/start-run.js';
import { fieldsOf, variableBody } from '../../src/console/pages/workspace/variables/variable-body.js';
import { pageSizeOf, workspaceListPath } from '../../src/console/pages/workspaces.js';
import { href, orgPath, parseRoute } from '../../src/console/router.js';
import { parseTagged, taggedParams } from '../../src/console/tags.js';

/** The console's pure pieces: routes, the API paths its pages ask for, tag filters, run durations. */
describe('the console: hash routes', () => {
  it('parses every page, with names decoded and the query kept', () => {
    expect(parseRoute('')).toMatchObject({ page: 'organizations' });
    expect(parseRoute('#/')).toMatchObject({ page: 'organizations' });
    expect(parseRoute('#/orgs/acme')).toMatchObject({ page: 'workspaces', org: 'acme' });
    expect(parseRoute('#/orgs/acme/projects')).toMatchObject({ page: 'projects', org: 'acme' });
    expect(parseRoute('#/orgs/acme/locks')).toMatchObject({ page: 'locks', org: 'acme' });
    expect(parseRoute('#/orgs/acme/audit')).toMatchObject({ page: 'audit', org: 'acme' });
    const login = parseRoute('#/terraform-login?client_id=terraform-cli&state=s1');
    expect(login).toMatchObject({ page: 'terraform-login' });
    expect(login.query.get('client_id')).toBe('terraform-cli');
    expect(parseRoute('#/terraform-login/extra')).toMatchObject({ page: 'not-found' });
    const ws = parseRoute('#/orgs/my%20org/workspaces/app-prod');
    expect(ws).toMatchObject({ page: 'workspace', org: 'my org', name: 'app-prod' });
    const list = parseRoute('#/orgs/acme/workspaces?search=app&locked=true&page=2');
    expect(list.page).toBe('workspaces');
    expect(Object.fromEntries(list.query)).toEqual({ search: 'app', locked: 'true', page: '2' });
  });

  it('answers not-found for anything else, malformed escapes included', () => {
    for (const hash of ['#/nope', '#/orgs', '#/orgs/acme/nope', '#/orgs/acme/workspaces/a/b', '#/orgs/%E0%A4%A']) {
      expect(parseRoute(hash).page, hash).toBe('not-found');
    }
  });

  it('builds hashes with encoded names and without empty parameters', () => {
    expect(orgPath('a/b', 'workspaces', 'x y')).toBe('/orgs/a%2Fb/workspaces/x%20y');
    expect(href('/orgs/acme/workspaces', { search: 'app', page: undefined, tags: '' })).toBe(
      '#/orgs/acme/workspaces?search=app',
    );
    expect(parseRoute(`#${orgPath('a/b', 'workspaces', 'x y')}`)).toMatchObject({ org: 'a/b', name: 'x y' });
  });
});

describe('the console: the API paths of its pages', () => {
  const path = (hashQuery: string) => decodeURIComponent(workspaceListPath('acme', new URLSearchParams(hashQuery)));

  it('asks for a substring search, or a wildcard search when the box holds a *', () => {
    expect(path('search=app')).toContain('search[name]=app');
    expect(path('search=app-*')).toContain('search[wildcard-name]=app-*');
    expect(path('search=app-*')).not.toContain('search[name]');
  });

  it('passes every filter, sort and page, one page of 20 unless the hash asks for 50 or 100', () => {
    const p = path('project=prj-1&tags=a,b&tagged=env:prod, team&locked=false&status=applied&sort=-name&page=3');
    expect(p).toContain('filter[project][id]=prj-1');
    expect(p).toContain('search[tags]=a,b');
    expect(p).toContain('filter[tagged][0][key]=env');
    expect(p).toContain('filter[tagged][0][value]=prod');
    expect(p).toContain('filter[tagged][1][key]=team');
    expect(p).not.toContain('filter[tagged][1][value]');
    expect(p).toContain('filter[locked]=false');
    expect(p).toContain('filter[current-run][status]=applied');
    expect(p).toContain('sort=-name');
    expect(p).toContain('page[number]=3');
    expect(p).toContain('page[size]=20');
    expect(path('')).toBe('/organizations/acme/workspaces?page[size]=20&include=project,current_run,locked_by');
    expect(path('size=50')).toContain('page[size]=50');
    expect(path('size=100&page=2')).toContain('page[number]=2&page[size]=100');
    for (const odd of ['size=7', 'size=1000', 'size=x']) expect(path(odd)).toContain('page[size]=20');
    expect(pageSizeOf(new URLSearchParams('size=100'))).toBe(100);
  });

  it('reads key-value tags as key:value, a key alone, or :value', () => {
    expect(parseTagged(' env:prod , team,:blue,, ')).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'team', value: '' },
      { key: '', value: 'blue' },
    ]);
    expect(taggedParams(parseTagged(':blue'))).toEqual({ 'filter[tagged][0][value]': 'blue' });
  });

  it('takes a username or a workspace name in the audit filters, and looks it up', () => {
    for (const id of ['user-abc', 'team-x1', 'at-Q2', 'org-Z']) expect(isActorId(id), id).toBe(true);
    for (const name of ['alice', 'user', 'user-', 'bob.smith']) expect(isActorId(name), name).toBe(false);
    expect(isWorkspaceId('ws-abcdefghijklmnop')).toBe(true);
    expect(isWorkspaceId('app-prod')).toBe(false);
    expect(decodeURIComponent(memberLookupPath('acme', 'alice'))).toBe(
      '/organizations/acme/organization-memberships?q=alice&include=user&page[size]=100',
    );
    const members = {
      data: [],
      included: [
        { type: 'users', id: 'user-1', attributes: { username: 'alice2' } },
        { type: 'users', id: 'user-2', attributes: { username: 'Alice' } },
      ],
    };
    expect(userIdNamed(members, 'alice')).toBe('user-2');
    expect(userIdNamed(members, 'ali')).toBeUndefined();
  });

  it('shows the audit trail link only when the organization says the caller may read it', () => {
    const org = (permissions?: Record<string, boolean>) => ({
      data: {
        type: 'organizations',
        id: 'acme',
        attributes: { name: 'acme', email: '', 'created-at': '', permissions },
      },
    });
    expect(mayReadAuditTrail(org({ 'can-manage-auditing': true }))).toBe(true);
    expect(mayReadAuditTrail(org({ 'can-manage-auditing': false }))).toBe(false);
    expect(mayReadAuditTrail(org())).toBe(false);
    expect(mayReadAuditTrail(null)).toBe(false);
  });

  it('asks for the audit trail with its filters', () => {
    expect(decodeURIComponent(auditPath('acme', { actor: 'user-1', workspace: 'ws-1', since: '2026-01-01' }))).toBe(
      '/organizations/acme/audit-trail?filter[since]=2026-01-01&filter[actor]=user-1&filter[workspace]=ws-1&page[size]=20',
    );
  });
});

describe('the console: run durations and times', () => {
  const run = (id: string, created: string, t: Record<string, string>): Resource<RunAttributes> => ({
    id,
    type: 'runs',
    attributes: { status: 'applied', message: null, 'created-at': created, 'status-timestamps': t },
  });

  it('measures plan and apply from the status timestamps, oldest run first', () => {
    const runs = [
      run('run-b', '2026-01-02T00:00:00Z', {
        'planning-at': '2026-01-02T00:00:00Z',
        'planned-at': '2026-01-02T00:00:30Z',
        'applying-at': '2026-01-02T00:01:00Z',
        'applied-at': '2026-01-02T00:03:00Z',
      }),
      run('run-a', '2026-01-01T00:00:00Z', {
        'planning-at': '2026-01-01T00:00:00Z',
        'planned-at': '2026-01-01T00:00:05Z',
      }),
      run('run-c', '2026-01-03T00:00:00Z', {}),
    ];
    expect(runDurations(runs)).toEqual([
      { id: 'run-a', plan: 5, apply: null },
      { id: 'run-b', plan: 30, apply: 120 },
      { id: 'run-c', plan: null, apply: null },
    ]);
  });

  it('words ages and durations', () => {
    const now = Date.parse('2026-01-10T00:00:00Z');
    expect(ago('2026-01-09T23:59:30Z', now)).toBe('30 s ago');
    expect(ago('2026-01-09T23:50:00Z', now)).toBe('10 min ago');
    expect(ago('2026-01-09T21:00:00Z', now)).toBe('3 h ago');
    expect(ago('2026-01-01T00:00:00Z', now)).toBe('9 days ago');
    expect(duration(5)).toBe('5 s');
    expect(duration(125)).toBe('2 min 5 s');
    expect(duration(120)).toBe('2 min');
  });
});

describe('the console: runs, outputs and variables of the workspace page', () => {
  const run = (id: string, status: string, confirmable = false) =>
    ({
      id,
      type: 'runs',
      attributes: { status, actions: { 'is-confirmable': confirmable } },
    }) as unknown as Resource<RunAttributes>;

  it('keeps ?run= in the workspace route', () => {
    const r = parseRoute('#/orgs/acme/workspaces/web?run=run-1');
    expect(r).toMatchObject({ page: 'workspace', org: 'acme', name: 'web' });
    expect(r.query.get('run')).toBe('run-1');
  });

  it('shows the run the URL names, else the one held on to, else the newest awaiting approval, else the newest', () => {
    const list = [run('run-3', 'applying'), run('run-2', 'planned', true), run('run-1', 'planned', true)];
    expect(shownRunId(list, 'run-9')).toBe('run-9');
    expect(shownRunId(list, null)).toBe('run-2');
    expect(shownRunId([run('run-3', 'applied'), run('run-2', 'planned')], null)).toBe('run-3');
    expect(shownRunId([], null)).toBeNull();
    // The run held on to (awaiting approval when the page opened, or acted on) stays shown.
    expect(shownRunId([run('run-4', 'pending'), run('run-2', 'applying')], null, 'run-2')).toBe('run-2');
    expect(shownRunId(list, 'run-1', 'run-2')).toBe('run-1');
  });

  it("starts a run of the workspace's current configuration version", () => {
    expect(startRunBody('ws-1', 'cv-1', 'destroy', 'tear down')).toEqual({
      data: {
        type: 'runs',
        attributes: { message: 'tear down', 'is-destroy': true, 'plan-only': false },
        relationships: {
          workspace: { data: { type: 'workspaces', id: 'ws-1' } },
          'configuration-version': { data: { type: 'configuration-versions', id: 'cv-1' } },
        },
      },
    });
    const planOnly = startRunBody('ws-1', 'cv-1', 'plan-only', ' ').data.attributes;
    expect(planOnly).toEqual({ 'is-destroy': false, 'plan-only': true });
  });

  it('sends a sensitive variable its new value alone, any other variable every field', () => {
    const secret = {
      id: 'var-1',
      type: 'vars',
      attributes: { key: 'token', value: null, category: 'env', hcl: false, sensitive: true, description: 'd' },
    } as Resource<VariableAttributes>;
    expect(fieldsOf(secret).value).toBe('');
    expect(variableBody(secret, { ...fieldsOf(secret), value: 'new', key: 'other' })).toEqual({
      data: { type: 'vars', id: 'var-1', attributes: { value: 'new' } },
    });
    const plain = { ...secret, attributes: { ...secret.attributes, sensitive: false, value: 'v' } };
    expect(fieldsOf(plain).value).toBe('v');
    expect(variableBody(plain, { ...fieldsOf(plain), sensitive: true }).data).toEqual({
      type: 'vars',
      id: 'var-1',
      attributes: { key: 'token', value: 'v', category: 'env', hcl: false, sensitive: true, description: 'd' },
    });
    expect(variableBody(null, fieldsOf(null)).data).not.toHaveProperty('id');
  });

  it('shows an output as text: strings as they are, anything else as JSON', () => {
    expect(outputText('hello')).toBe('hello');
    expect(outputText(3)).toBe('3');
    expect(outputText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
});
