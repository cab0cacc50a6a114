/**
 * Entry of the CLI bundle. oclif finds the commands through COMMANDS (the "explicit" strategy),
 * so that one bundled file holds them all instead of a folder of modules.
 */
import AgentPoolCreate from '../commands/agent-pool/create.js';
import AgentPoolShow from '../commands/agent-pool/show.js';
import AgentPoolUpdate from '../commands/agent-pool/update.js';
import OrgEntitlements from '../commands/org/entitlements.js';
import ReservedTagKeyCreate from '../commands/org/reserved-tag-key/create.js';
import ReservedTagKeyDelete from '../commands/org/reserved-tag-key/delete.js';
import ReservedTagKeyList from '../commands/org/reserved-tag-key/list.js';
import ReservedTagKeyUpdate from '../commands/org/reserved-tag-key/update.js';
import AgentPoolDelete from '../commands/agent-pool/delete.js';
import AgentPoolList from '../commands/agent-pool/list.js';
import OAuthTokenCreate from '../commands/oauth-token/create.js';
import OAuthTokenList from '../commands/oauth-token/list.js';
import Completion from '../commands/completion/index.js';
import CompletionCandidates from '../commands/completion/candidates.js';
import ConfigGet from '../commands/config/get.js';
import ConfigList from '../commands/config/list.js';
import ConfigSet from '../commands/config/set.js';
import ConfigUnset from '../commands/config/unset.js';
import Login from '../commands/login.js';
import Logout from '../commands/logout.js';
import OrgCreate from '../commands/org/create.js';
import OrgDelete from '../commands/org/delete.js';
import OrgInvite from '../commands/org/invite.js';
import OrgJoin from '../commands/org/join.js';
import OrgList from '../commands/org/list.js';
import OrgMembers from '../commands/org/members.js';
import OrgMembersRemove from '../commands/org/members/remove.js';
import OrgShow from '../commands/org/show.js';
import OrgUpdate from '../commands/org/update.js';
import ProjectCreate from '../commands/project/create.js';
import ProjectDelete from '../commands/project/delete.js';
import ProjectList from '../commands/project/list.js';
import ProjectShow from '../commands/project/show.js';
import ProjectTagsAdd from '../commands/project/tags/add.js';
import ProjectTagsEffective from '../commands/project/tags/effective.js';
import ProjectTagsList from '../commands/project/tags/list.js';
import ProjectTagsRemove from '../commands/project/tags/remove.js';
import ProjectUpdate from '../commands/project/update.js';
import ProjectMoveWorkspaces from '../commands/project/move-workspaces.js';
import RunApply from '../commands/run/apply.js';
import RunCancel from '../commands/run/cancel.js';
import RunComment from '../commands/run/comment.js';
import RunDiscard from '../commands/run/discard.js';
import RunEvents from '../commands/run/events.js';
import RunForceExecute from '../commands/run/force-execute.js';
import RunList from '../commands/run/list.js';
import RunLogs from '../commands/run/logs.js';
import RunRecord from '../commands/run/record.js';
import RunShow from '../commands/run/show.js';
import RunStart from '../commands/run/start.js';
import Serve from '../commands/serve.js';
import Agent from '../commands/agent.js';
import AgentPoolAgents from '../commands/agent-pool/agents.js';
import AgentPoolAgentsDelete from '../commands/agent-pool/agents/delete.js';
import AgentPoolTokensCreate from '../commands/agent-pool/tokens/create.js';
import AgentPoolTokensDelete from '../commands/agent-pool/tokens/delete.js';
import AgentPoolTokensList from '../commands/agent-pool/tokens/list.js';
import StateList from '../commands/state/list.js';
import StateOutputs from '../commands/state/outputs.js';
import StatePull from '../commands/state/pull.js';
import StatePush from '../commands/state/push.js';
import StateRollback from '../commands/state/rollback.js';
import TeamAccess from '../commands/team/access.js';
import TeamAccessList from '../commands/team/access/list.js';
import TeamAddMember from '../commands/team/add-member.js';
import TeamCreate from '../commands/team/create.js';
import TeamDelete from '../commands/team/delete.js';
import TeamList from '../commands/team/list.js';
import TeamRemoveMember from '../commands/team/remove-member.js';
import TeamShow from '../commands/team/show.js';
import TeamUpdate from '../commands/team/update.js';
import TokenCreate from '../commands/token/create.js';
import TokenList from '../commands/token/list.js';
import TokenRevoke from '../commands/token/revoke.js';
import UserCreate from '../commands/user/create.js';
import UserDelete from '../commands/user/delete.js';
import UserList from '../commands/user/list.js';
import Whoami from '../commands/whoami.js';
import WorkspaceCreate from '../commands/workspace/create.js';
import WorkspaceDelete from '../commands/workspace/delete.js';
import WorkspaceList from '../commands/workspace/list.js';
import AuditList from '../commands/audit/list.js';
import Backup from '../commands/backup.js';
import Restore from '../commands/restore.js';
import WorkspaceLock from '../commands/workspace/lock.js';
import WorkspaceShow from '../commands/workspace/show.js';
import WorkspaceUnlock from '../commands/workspace/unlock.js';
import WorkspaceUpdate from '../commands/workspace/update.js';
// Workspace relations (issue 6).
import MaintenancePrune from '../commands/maintenance/prune.js';
import DbCopy from '../commands/db/copy.js';
import DbRotateKey from '../commands/db/rotate-key.js';
import AdminRetentionDelete from '../commands/admin/retention/delete.js';
import AdminRetentionSet from '../commands/admin/retention/set.js';
import AdminRetentionShow from '../commands/admin/retention/show.js';
import AdminSettingsSet from '../commands/admin/settings/set.js';
import AdminSettingsShow from '../commands/admin/settings/show.js';
import OrgRetentionDelete from '../commands/org/retention/delete.js';
import OrgRetentionSet from '../commands/org/retention/set.js';
import OrgRetentionShow from '../commands/org/retention/show.js';
import RemoteStateAdd from '../commands/remote-state/add.js';
import RemoteStateList from '../commands/remote-state/list.js';
import RemoteStateRemove from '../commands/remote-state/remove.js';
import RemoteStateSet from '../commands/remote-state/set.js';
import RegistryGpgKeyAdd from '../commands/registry/gpg-key/add.js';
import RegistryGpgKeyDelete from '../commands/registry/gpg-key/delete.js';
import RegistryGpgKeyList from '../commands/registry/gpg-key/list.js';
import RegistryMirrorDelete from '../commands/registry/mirror/delete.js';
import RegistryMirrorList from '../commands/registry/mirror/list.js';
import RegistryMirrorPush from '../commands/registry/mirror/push.js';
import RegistryModuleCreate from '../commands/registry/module/create.js';
import RegistryModuleDelete from '../commands/registry/module/delete.js';
import RegistryModuleList from '../commands/registry/module/list.js';
import RegistryModulePublish from '../commands/registry/module/publish.js';
import RegistryModuleShow from '../commands/registry/module/show.js';
import RegistryProviderDelete from '../commands/registry/provider/delete.js';
import RegistryProviderList from '../commands/registry/provider/list.js';
import RegistryProviderPublish from '../commands/registry/provider/publish.js';
import RegistryProviderShow from '../commands/registry/provider/show.js';
import SshKeyCreate from '../commands/ssh-key/create.js';
import SshKeyDelete from '../commands/ssh-key/delete.js';
import SshKeyList from '../commands/ssh-key/list.js';
import TagsList from '../commands/tags/list.js';
import VarList from '../commands/var/list.js';
import VarSet from '../commands/var/set.js';
import VarUnset from '../commands/var/unset.js';
import VarsetApply from '../commands/varset/apply.js';
import VarsetCreate from '../commands/varset/create.js';
import VarsetDelete from '../commands/varset/delete.js';
import VarsetList from '../commands/varset/list.js';
import VarsetRemove from '../commands/varset/remove.js';
import VarsetShow from '../commands/varset/show.js';
import VarsetUpdate from '../commands/varset/update.js';
import VarsetVarList from '../commands/varset/var/list.js';
import VarsetVarSet from '../commands/varset/var/set.js';
import VarsetVarUnset from '../commands/varset/var/unset.js';
import WorkspaceRetentionDelete from '../commands/workspace/retention/delete.js';
import WorkspaceRetentionSet from '../commands/workspace/retention/set.js';
import WorkspaceRetentionShow from '../commands/workspace/retention/show.js';
import WorkspaceSshKeyAssign from '../commands/workspace/ssh-key/assign.js';
import WorkspaceSshKeyUnassign from '../commands/workspace/ssh-key/unassign.js';
import WorkspaceTagBindingsAdd from '../commands/workspace/tag-bindings/add.js';
import WorkspaceTagBindingsEffective from '../commands/workspace/tag-bindings/effective.js';
import WorkspaceTagBindingsList from '../commands/workspace/tag-bindings/list.js';
import WorkspaceTagBindingsRemove from '../commands/workspace/tag-bindings/remove.js';
import WorkspaceTagsAdd from '../commands/workspace/tags/add.js';
import WorkspaceTagsList from '../commands/workspace/tags/list.js';
import WorkspaceTagsRemove from '../commands/workspace/tags/remove.js';
import WorkspaceNotificationsAdd from '../commands/workspace/notifications/add.js';
import WorkspaceNotificationsList from '../commands/workspace/notifications/list.js';
import WorkspaceNotificationsRemove from '../commands/workspace/notifications/remove.js';
import WorkspaceNotificationsShow from '../commands/workspace/notifications/show.js';
import WorkspaceNotificationsUpdate from '../commands/workspace/notifications/update.js';
import WorkspaceNotificationsVerify from '../commands/workspace/notifications/verify.js';
import WorkspaceTriggersAdd from '../commands/workspace/triggers/add.js';
import WorkspaceTriggersList from '../commands/workspace/triggers/list.js';
import WorkspaceTriggersRemove from '../commands/workspace/triggers/remove.js';
import Version from '../commands/version.js';
import Api from '../commands/api.js';
import { BerthCommand } from './base-command.js';
import { dispatch } from './command-line/dispatch.js';
import { execute as oclifExecute } from './oclif.js';

export const COMMANDS = {
  completion: Completion,
  'completion:candidates': CompletionCandidates,
  'config:get': ConfigGet,
  'config:list': ConfigList,
  'config:set': ConfigSet,
  'config:unset': ConfigUnset,
  login: Login,
  logout: Logout,
  agent: Agent,
  'agent-pool:agents': AgentPoolAgents,
  'agent-pool:agents:delete': AgentPoolAgentsDelete,
  'agent-pool:create': AgentPoolCreate,
  'agent-pool:delete': AgentPoolDelete,
  'agent-pool:list': AgentPoolList,
  'agent-pool:show': AgentPoolShow,
  'agent-pool:tokens:create': AgentPoolTokensCreate,
  'agent-pool:tokens:delete': AgentPoolTokensDelete,
  'agent-pool:tokens:list': AgentPoolTokensList,
  'agent-pool:update': AgentPoolUpdate,
  'oauth-token:create': OAuthTokenCreate,
  'oauth-token:list': OAuthTokenList,
  'org:create': OrgCreate,
  'org:delete': OrgDelete,
  'org:entitlements': OrgEntitlements,
  'org:list': OrgList,
  'org:reserved-tag-key:create': ReservedTagKeyCreate,
  'org:reserved-tag-key:delete': ReservedTagKeyDelete,
  'org:reserved-tag-key:list': ReservedTagKeyList,
  'org:reserved-tag-key:update': ReservedTagKeyUpdate,
  'org:invite': OrgInvite,
  'org:join': OrgJoin,
  'org:members': OrgMembers,
  'org:members:remove': OrgMembersRemove,
  'org:show': OrgShow,
  'org:update': OrgUpdate,
  'project:create': ProjectCreate,
  'project:delete': ProjectDelete,
  'project:list': ProjectList,
  'project:show': ProjectShow,
  'project:tags:add': ProjectTagsAdd,
  'project:tags:effective': ProjectTagsEffective,
  'project:tags:list': ProjectTagsList,
  'project:tags:remove': ProjectTagsRemove,
  'project:update': ProjectUpdate,
  'project:move-workspaces': ProjectMoveWorkspaces,
  'run:apply': RunApply,
  'run:cancel': RunCancel,
  'run:comment': RunComment,
  'run:discard': RunDiscard,
  'run:events': RunEvents,
  'run:force-execute': RunForceExecute,
  'run:list': RunList,
  'run:logs': RunLogs,
  'run:record': RunRecord,
  'run:show': RunShow,
  'run:start': RunStart,
  serve: Serve,
  'state:list': StateList,
  'state:outputs': StateOutputs,
  'state:pull': StatePull,
  'state:push': StatePush,
  'state:rollback': StateRollback,
  'team:access': TeamAccess,
  'team:access:list': TeamAccessList,
  'team:add-member': TeamAddMember,
  'team:create': TeamCreate,
  'team:delete': TeamDelete,
  'team:list': TeamList,
  'team:remove-member': TeamRemoveMember,
  'team:show': TeamShow,
  'team:update': TeamUpdate,
  'token:create': TokenCreate,
  'token:list': TokenList,
  'token:revoke': TokenRevoke,
  'user:create': UserCreate,
  'user:delete': UserDelete,
  'user:list': UserList,
  whoami: Whoami,
  'workspace:create': WorkspaceCreate,
  'workspace:delete': WorkspaceDelete,
  'workspace:list': WorkspaceList,
  'audit:list': AuditList,
  backup: Backup,
  restore: Restore,
  'workspace:lock': WorkspaceLock,
  'workspace:show': WorkspaceShow,
  'workspace:unlock': WorkspaceUnlock,
  'workspace:update': WorkspaceUpdate,
  // Workspace relations (issue 6).
  'maintenance:prune': MaintenancePrune,
  'db:copy': DbCopy,
  'db:rotate-key': DbRotateKey,
  'admin:retention:delete': AdminRetentionDelete,
  'admin:retention:set': AdminRetentionSet,
  'admin:retention:show': AdminRetentionShow,
  'admin:settings:set': AdminSettingsSet,
  'admin:settings:show': AdminSettingsShow,
  'org:retention:delete': OrgRetentionDelete,
  'org:retention:set': OrgRetentionSet,
  'org:retention:show': OrgRetentionShow,
  'remote-state:add': RemoteStateAdd,
  'remote-state:list': RemoteStateList,
  'remote-state:remove': RemoteStateRemove,
  'remote-state:set': RemoteStateSet,
  'registry:gpg-key:add': RegistryGpgKeyAdd,
  'registry:gpg-key:delete': RegistryGpgKeyDelete,
  'registry:gpg-key:list': RegistryGpgKeyList,
  'registry:mirror:delete': RegistryMirrorDelete,
  'registry:mirror:list': RegistryMirrorList,
  'registry:mirror:push': RegistryMirrorPush,
  'registry:module:create': RegistryModuleCreate,
  'registry:module:delete': RegistryModuleDelete,
  'registry:module:list': RegistryModuleList,
  'registry:module:publish': RegistryModulePublish,
  'registry:module:show': RegistryModuleShow,
  'registry:provider:delete': RegistryProviderDelete,
  'registry:provider:list': RegistryProviderList,
  'registry:provider:publish': RegistryProviderPublish,
  'registry:provider:show': RegistryProviderShow,
  'ssh-key:create': SshKeyCreate,
  'ssh-key:delete': SshKeyDelete,
  'ssh-key:list': SshKeyList,
  'tags:list': TagsList,
  'var:list': VarList,
  'var:set': VarSet,
  'var:unset': VarUnset,
  'varset:apply': VarsetApply,
  'varset:create': VarsetCreate,
  'varset:delete': VarsetDelete,
  'varset:list': VarsetList,
  'varset:remove': VarsetRemove,
  'varset:show': VarsetShow,
  'varset:update': VarsetUpdate,
  'varset:var:list': VarsetVarList,
  'varset:var:set': VarsetVarSet,
  'varset:var:unset': VarsetVarUnset,
  'workspace:retention:delete': WorkspaceRetentionDelete,
  'workspace:retention:set': WorkspaceRetentionSet,
  'workspace:retention:show': WorkspaceRetentionShow,
  'workspace:ssh-key:assign': WorkspaceSshKeyAssign,
  'workspace:ssh-key:unassign': WorkspaceSshKeyUnassign,
  'workspace:tag-bindings:add': WorkspaceTagBindingsAdd,
  'workspace:tag-bindings:effective': WorkspaceTagBindingsEffective,
  'workspace:tag-bindings:list': WorkspaceTagBindingsList,
  'workspace:tag-bindings:remove': WorkspaceTagBindingsRemove,
  'workspace:tags:add': WorkspaceTagsAdd,
  'workspace:tags:list': WorkspaceTagsList,
  'workspace:tags:remove': WorkspaceTagsRemove,
  'workspace:notifications:add': WorkspaceNotificationsAdd,
  'workspace:notifications:list': WorkspaceNotificationsList,
  'workspace:notifications:remove': WorkspaceNotificationsRemove,
  'workspace:notifications:show': WorkspaceNotificationsShow,
  'workspace:notifications:update': WorkspaceNotificationsUpdate,
  'workspace:notifications:verify': WorkspaceNotificationsVerify,
  'workspace:triggers:add': WorkspaceTriggersAdd,
  'workspace:triggers:list': WorkspaceTriggersList,
  'workspace:triggers:remove': WorkspaceTriggersRemove,
  version: Version,
  api: Api,
};

export { flush, handle } from './oclif.js';
export { BerthHelp } from './command-line/help.js';

/**
 * Runs the CLI: `help`, aliases and mistyped commands are handled first (cli/command-line/dispatch.ts), then
 * oclif parses and runs the command.
 */
export async function execute(options: { development?: boolean; dir: string }): Promise<unknown> {
  // A command's `aliases` (`module publish` for `registry module publish`) are ids of their own.
  const commands: Record<string, { args?: object; strict?: boolean; aliases?: string[] }> = { ...COMMANDS };
  for (const command of Object.values(COMMANDS) as { aliases?: string[] }[])
    for (const alias of command.aliases ?? []) commands[alias] = command;
  const resolved = dispatch(process.argv.slice(2), Object.keys(commands), {
    globalFlags: Object.entries(BerthCommand.baseFlags).map(([name, flag]) => ({
      name,
      char: (flag as { char?: string }).char,
      takesValue: flag.type !== 'boolean',
    })),
    takesArguments: (id) => commands[id].strict === false || Object.keys(commands[id].args ?? {}).length > 0,
  });
  if ('error' in resolved) {
    process.stderr.write(`Error: ${resolved.error}\n`);
    process.exitCode = 2;
    return undefined;
  }
  // oclif reads process.argv again when it shows a command's usage after a parse error (a
  // missing argument, an unknown flag): it must see the command as resolved, not its alias.
  process.argv = [...process.argv.slice(0, 2), ...resolved.argv];
  return oclifExecute({ ...options, args: resolved.argv });
}
