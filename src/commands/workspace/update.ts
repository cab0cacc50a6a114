import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { renderTable } from '../../cli/output/output.js';
import { workspaceExtras } from '../../cli/output/related-names.js';
import { bulkFlags, bulkTable, matchingWorkspaces, runBulk } from '../../cli/workspaces/bulk.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { withNames, workspaceFields } from '../../cli/views/workspace.js';
import {
  parseTagFlag,
  tagBindingsRelationship,
  workspaceRequestFromFlags,
  workspaceSettingFlags,
} from '../../cli/workspaces/workspace-flags.js';
import type { Resource } from '../../client/jsonapi.js';
import type { TagPair } from '../../client/projects.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';
import { formatTagPairs, planTagBindings } from '../../client/tag-binding-changes.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class WorkspaceUpdate extends BerthCommand<typeof WorkspaceUpdate> {
  static override summary = 'Change the settings of a workspace.';
  static override description = `Only the settings given change. --name renames the workspace (its by-name address changes). --project moves it to another project (needs admin on both). --tag KEY=VALUE adds a tag or changes its value and never removes one; --remove-tag KEY removes one; --clear-tags removes them all and says which. The tag changes go in the same request as the other settings.

With --all-matching and the filters of \`workspace list\` (there --project and --tag are filters, as in every bulk command), changes the settings given on every matching workspace, e.g. --engine-version: it previews them with their current values, asks to confirm on a terminal (or takes --yes), reports each result and exits non-zero if any failed. --dry-run previews and changes nothing. --name and the tag changes are for one workspace at a time (project move-workspaces moves many).`;
  static override examples = [
    '<%= config.bin %> workspace update app-prod --org acme --auto-apply --description "Production"',
    '<%= config.bin %> workspace update acme/app-prod --name app-production',
    '<%= config.bin %> workspace update ws-6jrRyVDv1J8zQMB5 --project Platform',
    '<%= config.bin %> workspace update acme/app --inherit-execution-mode --inherit-auto-destroy',
    '<%= config.bin %> workspace update acme/app --no-vcs',
    '<%= config.bin %> workspace update acme/app --tag env=prod --tag team=web --remove-tag owner',
    '<%= config.bin %> workspace update acme/app --clear-tags',
    '<%= config.bin %> workspace update --all-matching --org acme --wildcard "app-*" --engine-version 1.9.8 --dry-run',
    '<%= config.bin %> workspace update --all-matching --org acme --tag env=prod --engine-version "~> 1.9.0" --yes',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME (not with --all-matching)' }),
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
    'remove-tag': Flags.string({
      description: 'KEY: remove this tag of the workspace (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'clear-tags': Flags.boolean({
      description: "remove every tag of the workspace's own (prints which)",
      exclusive: ['tag', 'remove-tag'],
    }),
    ...bulkFlags('update'),
    // Both a setting (one workspace) and a filter (--all-matching), as in the other bulk commands.
    project: Flags.string({
      char: 'p',
      description:
        'the project to move the workspace to (prj- id or name); with --all-matching: only workspaces of this project',
    }),
    tag: Flags.string({
      description:
        'KEY=VALUE: add this tag or change its value; the other tags stay (repeatable); with --all-matching: only workspaces with this tag, KEY[=VALUE] (repeat for AND)',
      multiple: true,
      multipleNonGreedy: true,
    }),
  };

  async run(): Promise<void> {
    if (this.flags['all-matching']) return this.updateMatching();
    // A filter without --all-matching would be ignored: a mistake, never a narrower update.
    const filter = (['search', 'wildcard', 'tags', 'exclude-tags', 'run-status', 'locked'] as const).find(
      (k) => this.flags[k] !== undefined,
    );
    if (filter) throw usageError(`--${filter} is a filter of --all-matching: give it with --all-matching, or drop it`);
    if (!this.args.workspace)
      throw usageError('say which workspace to update, or use --all-matching with filters (e.g. --wildcard "app-*")');
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

  /**
   * `--all-matching`: the same settings on every workspace the filters match (--project and --tag
   * are filters here), previewed with their current values, confirmed, and reported one by one.
   */
  private async updateMatching(): Promise<void> {
    const f = this.flags;
    const single = (['name', 'remove-tag', 'clear-tags'] as const).find((k) => f[k] !== undefined && f[k] !== false);
    if (single)
      throw usageError(
        `--${single} changes one workspace at a time: give WORKSPACE instead of --all-matching` +
          (single === 'name' ? '' : ' (or use berth workspace tag-bindings)'),
      );
    const client = await this.client();
    const org = this.requireOrg();
    const { attributes } = await workspaceRequestFromFlags(client, org, { ...f, tag: undefined, project: undefined });
    if (f['no-vcs']) attributes['vcs-repo'] = null;
    if (f['inherit-execution-mode'])
      attributes['setting-overwrites'] = { 'execution-mode': false, 'agent-pool': false };
    if (f['inherit-auto-destroy']) attributes['inherits-project-auto-destroy'] = true;
    const changes = Object.entries(attributes).filter(([, v]) => v !== undefined);
    if (changes.length === 0)
      throw usageError('nothing to change: pass at least one setting flag (e.g. --engine-version 1.9.8)');
    const items = await matchingWorkspaces(client, org, this.args.workspace, f);
    const workspaces = new WorkspacesClient(client);
    const said = changes.map(([k, v]) => `${settingName(k)} ${shown(v)}`).join(', ');
    const { results, exitCode } = await runBulk(
      items,
      `Updating (${said})`,
      f,
      (w) => workspaces.update({ id: w.id }, Object.fromEntries(changes)),
      (ws) => preview(ws, changes),
    );
    this.print(results, () => bulkTable(results));
    if (exitCode !== 0) this.exit(exitCode);
  }
}

/** The CLI's name of a workspace attribute (its flag's), for the bulk preview. */
function settingName(attribute: string): string {
  return SETTING_NAMES[attribute] ?? attribute;
}

const SETTING_NAMES: Record<string, string> = {
  'terraform-version': 'engine-version',
  'assessments-enabled': 'assessments',
  'auto-destroy-activity-duration': 'auto-destroy-duration',
  'file-triggers-enabled': 'file-triggers',
  'speculative-enabled': 'speculative',
  'trigger-prefixes': 'trigger-prefix',
  'trigger-patterns': 'trigger-pattern',
  'agent-pool-id': 'agent-pool',
  'inherits-project-auto-destroy': 'inherit-auto-destroy',
};

const shown = (v: unknown): string =>
  v === null ? 'none' : typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : JSON.stringify(v);

/** The workspaces a bulk update acts on, each with the current value of every setting it changes and the new one. */
function preview(items: Resource[], changes: [string, unknown][]): string {
  return renderTable(
    items,
    [
      { header: 'WORKSPACE', value: (w) => w.attributes.name },
      ...changes.map(([key, next]) => ({
        header: settingName(key).toUpperCase(),
        value: (w: Resource) => `${key in w.attributes ? shown(w.attributes[key] ?? null) : '-'} -> ${shown(next)}`,
      })),
    ],
    { diagnostic: true },
  );
}
