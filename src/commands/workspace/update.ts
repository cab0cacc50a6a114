import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { withNames, workspaceFields } from '../../cli/views/workspace.js';
import { workspaceRequestFromFlags, workspaceSettingFlags } from '../../cli/workspace-flags.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class WorkspaceUpdate extends BerthCommand<typeof WorkspaceUpdate> {
  static override summary = 'Change the settings of a workspace.';
  static override description =
    "Only the settings given change. --name renames the workspace (its by-name address changes). --project moves it to another project (needs admin on both). --tag replaces the workspace's own tag bindings; --clear-tags removes them all.";
  static override examples = [
    '<%= config.bin %> workspace update app-prod --org acme --auto-apply --description "Production"',
    '<%= config.bin %> workspace update acme/app-prod --name app-production',
    '<%= config.bin %> workspace update ws-6jrRyVDv1J8zQMB5 --project Platform',
    '<%= config.bin %> workspace update acme/app --inherit-execution-mode --inherit-auto-destroy',
    '<%= config.bin %> workspace update acme/app --no-vcs',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    ...workspaceSettingFlags,
    name: Flags.string({ description: 'new name' }),
    'vcs-app-installation': Flags.string({ description: 'GitHub App installation id (instead of an OAuth token)' }),
    'no-vcs': Flags.boolean({
      description: 'disconnect the VCS repository',
      exclusive: ['vcs-identifier', 'vcs-oauth-token', 'vcs-branch'],
    }),
    'inherit-execution-mode': Flags.boolean({
      description: "use the project's default execution mode again",
      exclusive: ['execution-mode', 'agent-pool'],
    }),
    'inherit-auto-destroy': Flags.boolean({
      description: "use the project's auto-destroy duration again",
      exclusive: ['auto-destroy-duration'],
    }),
    'clear-tags': Flags.boolean({ description: "remove the workspace's own tag bindings", exclusive: ['tag'] }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const org = 'organization' in ref ? ref.organization : this.flags.org;
    const { attributes, relationships } = await workspaceRequestFromFlags(client, org, this.flags);
    attributes.name = this.flags.name;
    if (this.flags['no-vcs']) attributes['vcs-repo'] = null;
    if (this.flags['inherit-execution-mode'])
      attributes['setting-overwrites'] = { 'execution-mode': false, 'agent-pool': false };
    if (this.flags['inherit-auto-destroy']) attributes['inherits-project-auto-destroy'] = true;
    if (this.flags['clear-tags']) relationships['tag-bindings'] = { data: [] };
    if (Object.values(attributes).every((v) => v === undefined) && Object.keys(relationships).length === 0) {
      throw usageError('nothing to change: pass at least one setting flag');
    }
    const workspaces = new WorkspacesClient(client);
    const { data } = await workspaces.update(ref, attributes, relationships);
    // The human view names the project and the lock holder: one more read, with includes.
    const shown = this.jsonMode ? { data, included: [] } : await workspaces.get({ id: data.id }, withNames());
    this.print(
      data,
      () => `Updated workspace ${data.attributes.name} (${data.id}).\n${workspaceFields(shown.data, shown.included)}`,
    );
  }
}
