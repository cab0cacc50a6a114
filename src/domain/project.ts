import type { ExecutionMode } from './organization.js';

export const DEFAULT_PROJECT_NAME = 'Default Project';

export interface Project {
  id: string;
  organizationId: string;
  organizationName: string;
  name: string;
  description: string | null;
  autoDestroyActivityDuration: string | null;
  defaultExecutionMode: ExecutionMode;
  isDefault: boolean;
  createdAt: string;
  workspaceCount: number;
  teamCount: number;
  permissions: ProjectPermissions;
}

export interface ProjectPermissions {
  canRead: boolean;
  canUpdate: boolean;
  canDestroy: boolean;
  canCreateWorkspace: boolean;
  canMoveWorkspace: boolean;
  canManageTags: boolean;
  canManageTeams: boolean;
}
