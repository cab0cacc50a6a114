import type { Resource } from '../../client/jsonapi.js';
import type { ProjectAttributes, TagBindingAttributes, WorkspaceAttributes } from '../../client/resources.js';
import { relativeTime } from '../output/human-time.js';
import { describeLock, lockHolderName } from '../workspaces/lock-holder.js';
import { renderFields, renderTable } from '../output/output.js';

const one = (r: Resource, name: string) => {
  const d = r.relationships?.[name]?.data;
  return d && !Array.isArray(d) ? d.id : null;
};

/** The name of a related resource found in `included`, else its id. */
export function nameOf(r: Resource, relationship: string, included: Resource[]): string | null {
  const d = r.relationships?.[relationship]?.data;
  if (!d || Array.isArray(d)) return null;
  const found = included.find((i) => i.type === d.type && i.id === d.id);
  return typeof found?.attributes.name === 'string' ? found.attributes.name : d.id;
}

/** The latest run for a person, from the runs an `include=current_run` brought: `applied, 3 minutes ago`. */
function latestRun(w: Resource, included: Resource[]): string | null {
  const id = one(w, 'latest-run');
  if (id === null) return null;
  const run = included.find((r) => r.type === 'runs' && r.id === id);
  if (!run) return id;
  const at = run.attributes['created-at'];
  return `${String(run.attributes.status)}${typeof at === 'string' ? `, ${relativeTime(at)}` : ''}`;
}

/**
 * Workspaces as a table. `projectNames` (project id to name) names the PROJECT column; a project
 * the caller may not read shows its id. `included` (from `include=locked_by,current_run`) names
 * the lock holders and the latest runs of the optional columns.
 */
export function workspaceTable(
  list: Resource<WorkspaceAttributes>[],
  projectNames: Map<string, string> = new Map(),
  included: Resource[] = [],
): string {
  return renderTable(list, [
    { header: 'NAME', value: (w) => w.attributes.name },
    { header: 'ID', value: (w) => w.id },
    {
      header: 'PROJECT',
      value: (w) => {
        const id = one(w, 'project');
        return id === null ? null : (projectNames.get(id) ?? id);
      },
    },
    { header: 'EXECUTION', value: (w) => w.attributes['execution-mode'] },
    { header: 'VERSION', value: (w) => w.attributes['terraform-version'] },
    { header: 'LOCKED', value: (w) => (w.attributes.locked ? 'yes' : 'no') },
    { header: 'RESOURCES', value: (w) => w.attributes['resource-count'] },
    // Extra columns, with --columns (e.g. --columns name,locked-by,locked-at,tags).
    {
      header: 'LOCKED-BY',
      value: (w) => (w.attributes.locked ? lockHolderName(w, included) : null),
      optional: true,
    },
    { header: 'LOCKED-AT', value: (w) => w.attributes['locked-at'], optional: true },
    { header: 'LOCK-REASON', value: (w) => w.attributes['locked-reason'], optional: true },
    { header: 'TAGS', value: (w) => w.attributes['tag-names'], optional: true },
    { header: 'LATEST-RUN', value: (w) => latestRun(w, included), optional: true },
    { header: 'DESCRIPTION', value: (w) => w.attributes.description, optional: true },
    { header: 'LATEST-CHANGE', value: (w) => w.attributes['latest-change-at'], optional: true },
    { header: 'CREATED', value: (w) => w.attributes['created-at'], optional: true },
    { header: 'UPDATED', value: (w) => w.attributes['updated-at'], optional: true },
  ]);
}

/**
 * The includes a person's view of a workspace needs (project and lock holder names, key-value
 * tags), added to those asked for.
 */
export function withNames(include?: string): string {
  const all = [...(include ?? '').split(','), 'project', 'locked_by', 'effective_tag_bindings']
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...new Set(all)].join(',');
}

/** What a person's view of a workspace shows besides the workspace's own document, by name. */
export interface WorkspaceExtras {
  /** The SSH key's name (null: none). */
  sshKey?: string | null;
  /** The workspaces that may read its state, by name (undefined: not read). */
  remoteStateConsumers?: string[];
  /** What the current health assessment found (hosted edition; null: none yet). */
  drift?: string | null;
}

export function workspaceFields(
  w: Resource<WorkspaceAttributes>,
  included: Resource[] = [],
  extras: WorkspaceExtras = {},
): string {
  const a = w.attributes;
  const projectId = one(w, 'project');
  const project = included.find((r) => r.type === 'projects' && r.id === projectId) as
    Resource<ProjectAttributes> | undefined;
  const inherited = (flag: boolean) => (flag ? ' (inherited)' : '');
  const fields: [string, unknown][] = [
    ['Name', a.name],
    ['ID', w.id],
    ['Organization', one(w, 'organization')],
    ['Project', project ? project.attributes.name : projectId],
    ['Description', a.description],
    ['Execution mode', `${a['execution-mode']}${inherited(!a['setting-overwrites']?.['execution-mode'])}`],
    ['Agent pool', nameOf(w, 'agent-pool', included)],
    ['Engine version', a['terraform-version']],
    ['Auto apply', a['auto-apply']],
    ['Auto apply (run triggers)', a['auto-apply-run-trigger']],
    ['Allow destroy plan', a['allow-destroy-plan']],
    ['Auto destroy at', a['auto-destroy-at']],
    [
      'Auto destroy after',
      a['auto-destroy-activity-duration'] === null
        ? null
        : `${a['auto-destroy-activity-duration']}${inherited(a['inherits-project-auto-destroy'])}`,
    ],
    ['File triggers', a['file-triggers-enabled']],
    ['Trigger prefixes', a['trigger-prefixes']],
    ['Trigger patterns', a['trigger-patterns']],
    ['Working directory', a['working-directory']],
    [
      'VCS repository',
      a['vcs-repo'] ? `${a['vcs-repo'].identifier}${a['vcs-repo'].branch ? ` @ ${a['vcs-repo'].branch}` : ''}` : null,
    ],
    ['SSH key', extras.sshKey ?? null],
    ['Global remote state', a['global-remote-state']],
    [
      'Remote state consumers',
      a['global-remote-state'] ? 'every workspace of the organization' : (extras.remoteStateConsumers ?? null),
    ],
    ['Queue all runs', a['queue-all-runs']],
    ['Speculative plans', a['speculative-enabled']],
    ['Tags', tagsOf(included, project)],
    ['Flat tags', a['tag-names']],
    ['Locked', a.locked ? `yes, ${describeLock(w, included)}` : 'no'],
    ['Resources', a['resource-count']],
    ['Created', a['created-at']],
    ['Updated', a['updated-at']],
  ];
  if ('assessments-enabled' in a)
    fields.splice(9, 0, ['Assessments', a['assessments-enabled']], ['Drift', extras.drift ?? null]);
  return renderFields(fields);
}

/** The key-value tags (`key=value`, inherited ones say from which project). */
function tagsOf(included: Resource[], project: Resource<ProjectAttributes> | undefined): string[] {
  const tags = included.filter((r) => r.type === 'effective-tag-bindings') as Resource<TagBindingAttributes>[];
  return tags.map(
    (t) =>
      `${t.attributes.key}=${t.attributes.value}${t.links?.['inherited-from'] ? ` (inherited from ${project ? project.attributes.name : 'the project'})` : ''}`,
  );
}

export function agentPoolTable(list: Resource[]): string {
  return renderTable(list, [
    { header: 'NAME', value: (p) => p.attributes.name },
    { header: 'ID', value: (p) => p.id },
    {
      header: 'WORKSPACES',
      value: (p) => (Array.isArray(p.relationships?.workspaces?.data) ? p.relationships.workspaces.data.length : 0),
    },
    { header: 'CREATED', value: (p) => p.attributes['created-at'] },
  ]);
}

export function oauthTokenTable(list: Resource[]): string {
  return renderTable(list, [
    { header: 'ID', value: (t) => t.id },
    { header: 'PROVIDER', value: (t) => t.attributes['service-provider'] },
    { header: 'NAME', value: (t) => t.attributes.name },
    { header: 'CREATED', value: (t) => t.attributes['created-at'] },
  ]);
}
