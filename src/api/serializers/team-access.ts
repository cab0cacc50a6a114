import type { TeamProject, TeamWorkspace } from '../../domain/permissions/access.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** A `team-projects` document (HCP Terraform's shape): the level and the permissions it implies. */
export function serializeTeamProject(g: TeamProject): ResourceObject {
  const p = g.permissions;
  return {
    id: g.id,
    type: 'team-projects',
    attributes: {
      access: g.access,
      'project-access': { settings: p.settings, teams: p.teams, 'variable-sets': p.variableSets },
      'workspace-access': {
        create: p.workspace.create,
        move: p.workspace.move,
        locking: p.workspace.locking,
        delete: p.workspace.delete,
        runs: p.workspace.runs,
        variables: p.workspace.variables,
        'state-versions': p.workspace.stateVersions,
        'sentinel-mocks': p.workspace.sentinelMocks,
        'run-tasks': p.workspace.runTasks,
      },
    },
    relationships: {
      team: toOne('teams', g.teamId, `${API_PREFIX}/teams/${g.teamId}`),
      project: toOne('projects', g.projectId, `${API_PREFIX}/projects/${g.projectId}`),
    },
    links: { self: `${API_PREFIX}/team-projects/${g.id}` },
  };
}

/** A `team-workspaces` document (HCP Terraform's shape). */
export function serializeTeamWorkspace(g: TeamWorkspace): ResourceObject {
  const p = g.permissions;
  return {
    id: g.id,
    type: 'team-workspaces',
    attributes: {
      access: g.access,
      runs: p.runs,
      variables: p.variables,
      'state-versions': p.stateVersions,
      'sentinel-mocks': p.sentinelMocks,
      'workspace-locking': p.locking,
      'run-tasks': p.runTasks,
    },
    relationships: {
      team: toOne('teams', g.teamId, `${API_PREFIX}/teams/${g.teamId}`),
      workspace: toOne(
        'workspaces',
        g.workspaceId,
        `${API_PREFIX}/organizations/${encodeURIComponent(g.organizationName)}/workspaces/${encodeURIComponent(g.workspaceName)}`,
      ),
    },
    links: { self: `${API_PREFIX}/team-workspaces/${g.id}` },
  };
}
