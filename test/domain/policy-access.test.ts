import { describe, expect, it } from 'vitest';
import {
  impliedProjectPermissions,
  impliedWorkspacePermissions,
  parseTeamProjectAttributes,
  parseTeamWorkspaceAttributes,
} from '../../src/domain/permissions/access.js';
import { BerthError } from '../../src/domain/common/errors.js';
import {
  can,
  readableWorkspaceScope,
  scoped,
  type OrgFacts,
  type TeamGrant,
} from '../../src/domain/permissions/policy.js';

const user = { kind: 'user' as const, tokenId: 'at', userId: 'u', username: 'u', siteAdmin: false };
const team = (over: Partial<TeamGrant> = {}): TeamGrant => ({
  teamId: 't1',
  isOwners: false,
  manageProjects: false,
  manageWorkspaces: false,
  readProjects: false,
  readWorkspaces: false,
  ...over,
});
const onWs = { projectId: 'p1', workspaceId: 'w1' };
const facts = (over: Partial<OrgFacts> = {}): OrgFacts => ({
  organizationId: 'o',
  teams: [team()],
  projectGrants: [],
  workspaceGrants: [],
  ...over,
});
const wsGrant = (access: 'read' | 'plan' | 'write' | 'admin') => ({
  teamId: 't1',
  workspaceId: 'w1',
  access,
  permissions: impliedWorkspacePermissions(access),
});

describe('policy: remote state consumers (spec: Authentication)', () => {
  it('replacing the list is for who manages workspaces for the whole organization', () => {
    expect(
      can(user, 'workspace:replace-consumers', scoped(facts({ teams: [team({ manageWorkspaces: true })] }), onWs)),
    ).toBe(true);
    expect(can(user, 'workspace:replace-consumers', scoped(facts({ teams: [team({ isOwners: true })] }), onWs))).toBe(
      true,
    );
    expect(can(user, 'workspace:replace-consumers', scoped(facts({ workspaceGrants: [wsGrant('admin')] }), onWs))).toBe(
      false,
    );
    expect(
      can(
        { kind: 'organization', tokenId: 'x', organizationId: 'o' },
        'workspace:replace-consumers',
        scoped(facts({ teams: [] }), onWs),
      ),
    ).toBe(true);
  });
  it('adding and removing consumers is also for workspace admins, not for write', () => {
    expect(
      can(user, 'workspace:add-remove-consumers', scoped(facts({ workspaceGrants: [wsGrant('admin')] }), onWs)),
    ).toBe(true);
    expect(
      can(user, 'workspace:add-remove-consumers', scoped(facts({ workspaceGrants: [wsGrant('write')] }), onWs)),
    ).toBe(false);
    const projectAdmin = {
      teamId: 't1',
      projectId: 'p1',
      access: 'admin' as const,
      permissions: impliedProjectPermissions('admin'),
    };
    expect(can(user, 'workspace:add-remove-consumers', scoped(facts({ projectGrants: [projectAdmin] }), onWs))).toBe(
      true,
    );
  });
});

describe('policy: effective access', () => {
  it('a workspace grant counts only for its workspace; without a target only organization-level grants count', () => {
    const f = facts({ workspaceGrants: [wsGrant('admin')] });
    expect(can(user, 'workspace:update', scoped(f, onWs))).toBe(true);
    expect(can(user, 'workspace:update', scoped(f, { projectId: 'p1', workspaceId: 'w2' }))).toBe(false);
    expect(can(user, 'workspace:update', f)).toBe(false);
    expect(readableWorkspaceScope(user, f)).toEqual({ projectIds: [], workspaceIds: ['w1'] });
    expect(readableWorkspaceScope(user, facts({ teams: [team({ readWorkspaces: true })] }))).toBe('all');
  });
  it('project maintain is workspace admin and may create workspaces, but not move them', () => {
    const f = facts({
      projectGrants: [
        { teamId: 't1', projectId: 'p1', access: 'maintain', permissions: impliedProjectPermissions('maintain') },
      ],
    });
    expect(can(user, 'workspace:update', scoped(f, onWs))).toBe(true);
    expect(can(user, 'workspace:create', scoped(f, { projectId: 'p1' }))).toBe(true);
    expect(can(user, 'project:move-workspaces', scoped(f, { projectId: 'p1' }))).toBe(false);
    expect(can(user, 'project:update', scoped(f, { projectId: 'p1' }))).toBe(false);
  });
  it('a custom project grant gives exactly its flags', () => {
    const permissions = {
      ...impliedProjectPermissions('read'),
      workspace: { ...impliedProjectPermissions('read').workspace, locking: true, move: true },
    };
    const f = facts({ projectGrants: [{ teamId: 't1', projectId: 'p1', access: 'custom', permissions }] });
    expect(can(user, 'workspace:lock', scoped(f, onWs))).toBe(true);
    expect(can(user, 'project:move-workspaces', scoped(f, { projectId: 'p1' }))).toBe(true);
    expect(can(user, 'workspace:update', scoped(f, onWs))).toBe(false);
  });
  it('force delete: owners always, workspace admins only when the organization allows it', () => {
    const f = scoped(facts({ workspaceGrants: [wsGrant('admin')] }), onWs);
    expect(can(user, 'workspace:force-delete', f, { allowForceDeleteWorkspaces: false })).toBe(false);
    expect(can(user, 'workspace:force-delete', f, { allowForceDeleteWorkspaces: true })).toBe(true);
    expect(
      can(user, 'workspace:force-delete', scoped(facts({ teams: [team({ isOwners: true })] }), onWs), {
        allowForceDeleteWorkspaces: false,
      }),
    ).toBe(true);
  });
  it('a token of another organization gets nothing, whatever the facts say', () => {
    const other = { kind: 'organization' as const, tokenId: 'x', organizationId: 'elsewhere' };
    expect(can(other, 'workspace:read', scoped(facts({ teams: [] }), onWs))).toBe(false);
  });
});

describe('team access parsing', () => {
  const problems = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as BerthError).items.map((i) => i.pointer);
    }
    return [];
  };
  it('requires a known level on create, allows none on update', () => {
    expect(problems(() => parseTeamWorkspaceAttributes({}, 'create'))).toEqual(['/data/attributes/access']);
    expect(problems(() => parseTeamWorkspaceAttributes({}, 'update'))).toEqual([]);
    expect(problems(() => parseTeamProjectAttributes({ access: 'plan' }, 'create'))).toEqual([
      '/data/attributes/access',
    ]);
  });
  it('reports every bad custom value at once, and custom values with a fixed level', () => {
    expect(
      problems(() => parseTeamWorkspaceAttributes({ access: 'custom', runs: 'x', 'run-tasks': 1 }, 'create')),
    ).toEqual(['/data/attributes/runs', '/data/attributes/run-tasks']);
    expect(
      problems(() => parseTeamProjectAttributes({ access: 'write', 'project-access': { teams: 'manage' } }, 'create')),
    ).toEqual(['/data/attributes/project-access']);
  });
});
