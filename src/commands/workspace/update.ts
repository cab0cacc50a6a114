import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { workspaceExtras } from '../../cli/output/related-names.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { withNames, workspaceFields } from '../../cli/views/workspace.js';
import {
  parseTagFlag,
  tagBindingsRelationship,
  workspaceRequestFromFlags,
  workspaceSettingFlags,
} from '../../cli/workspaces/workspace-flags.js';
import type { TagPair } from '../../client/projects.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';
import { formatTagPairs, planTagBindings } from '../../client/tag-binding-changes.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class WorkspaceUpdate extends BerthCommand<typeof WorkspaceUpdate> {
  static override summary = 'Change the settings of a workspace.';
  static override description =
    'Only the settings given change. --name renames the workspace (its by-name address changes). --project moves it to another project (needs admin on both). --tag KEY=VALUE adds a tag or changes its value and never removes one; --remove-tag KEY removes one; --clear-tags removes them all and says which. The tag changes go in the same request as the other settings.';
  static override examples = [
    '<%= config.bin %> workspace update app-prod --org acme --auto-apply --description "Production"',
    '<%= config.bin %> workspace update acme/app-prod --name app-production',
    '<%= config.bin %> workspace update ws-6jrRyVDv1J8zQMB5 --project Platform',
    '<%= config.bin %> workspace update acme/app --inherit-execution-mode --inherit-auto-destroy',
    '<%= config.bin %> workspace update acme/app --no-vcs',
    '<%= config.bin %> workspace update acme/app --tag env=prod --tag team=web --remove-tag owner',
    '<%= config.bin %> workspace update acme/app --clear-tags',
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
    tag: Flags.string({
      description: 'KEY=VALUE: add this tag or change its value; the other tags stay (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'remove-tag': Flags.string({
      description: 'KEY: remove this tag of the workspace (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'clear-tags': Flags.boolean({
      description: "remove every tag of the workspace's own (prints which)",
      exclusive: ['tag', 'remove-tag'],
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const org = 'organization' in ref ? ref.organization : this.flags.org;
    const f = this.flags;
    const { attributes, relationships } = await workspaceRequestFromFlags(client, org, { ...f, tag: undefined });
    attributes.name = f.name;
    if (f['no-vcs']) attributes['vcs-repo'] = null;
    if (f['inherit-execution-mode'])
      attributes['setting-overwrites'] = { 'execution-mode': false, 'agent-pool': false };
    if (f['inherit-auto-destroy']) attributes['inherits-project-auto-destroy'] = true;
    const tagChange = { set: f.tag?.map(parseTagFlag), remove: f['remove-tag'], clear: f['clear-tags'] };
    let removed: TagPair[] = [];
    if (tagChange.set || tagChange.remove || tagChange.clear) {
      // The whole new set, inline: one request changes the settings and the tags, or nothing.
      const current = await new WorkspaceRelationsClient(client).tagBindings(ref);
      const plan = planTagBindings(current, tagChange, `workspace ${this.args.workspace}`);
      relationships['tag-bindings'] = tagBindingsRelationship(plan.next);
      removed = plan.removed;
    }
    if (Object.values(attributes).every((v) => v === undefined) && Object.keys(relationships).length === 0) {
      throw usageError('nothing to change: pass at least one setting flag');
    }
    const workspaces = new WorkspacesClient(client);
    const { data } = await workspaces.update(ref, attributes, relationships);
    const cleared =
      removed.length > 0
        ? `Removed tags: ${formatTagPairs(removed)}.`
        : f['clear-tags']
          ? 'It had no tags of its own to clear.'
          : '';
    // The human view names the project and the lock holder: one more read, with includes.
    const shown = this.jsonMode ? { data, included: [] } : await workspaces.get({ id: data.id }, withNames());
    const extras = this.jsonMode ? {} : await workspaceExtras(client, shown.data);
    this.print(
      data,
      () =>
        `Updated workspace ${data.attributes.name} (${data.id}).${cleared ? ` ${cleared}` : ''}\n${workspaceFields(shown.data, shown.included, extras)}`,
    );
  }
}
