import { Flags, type Interfaces } from '../oclif.js';
import type { BerthClient } from '../../client/client.js';
import { resolveAgentPoolId, resolveProjectId } from '../../client/workspaces.js';
import { usageError } from '../common/prompts.js';

/** The settings flags shared by `workspace create` and `workspace update`. */
export const workspaceSettingFlags = {
  description: Flags.string({ description: 'description' }),
  project: Flags.string({ char: 'p', description: 'project: a prj- id or a project name' }),
  'execution-mode': Flags.string({ description: 'where runs execute', options: ['remote', 'local', 'agent'] }),
  'agent-pool': Flags.string({ description: 'agent pool (apool- id or name), with --execution-mode agent' }),
  'auto-apply': Flags.boolean({ description: 'apply automatically after a successful plan', allowNo: true }),
  'auto-apply-run-trigger': Flags.boolean({ description: 'auto-apply runs started by run triggers', allowNo: true }),
  'allow-destroy-plan': Flags.boolean({ description: 'allow destroy plans', allowNo: true }),
  assessments: Flags.boolean({ description: 'health assessments (hosted edition only)', allowNo: true }),
  'auto-destroy-at': Flags.string({ description: 'time of a scheduled destroy run (ISO 8601)' }),
  'auto-destroy-duration': Flags.string({ description: 'destroy after this much inactivity, e.g. 14d or 36h' }),
  'file-triggers': Flags.boolean({ description: 'start VCS runs only for matching changed files', allowNo: true }),
  'global-remote-state': Flags.boolean({
    description: 'let every workspace of the organization read this state',
    allowNo: true,
  }),
  'queue-all-runs': Flags.boolean({ description: 'queue runs immediately after creation', allowNo: true }),
  speculative: Flags.boolean({ description: 'allow automatic speculative plans', allowNo: true }),
  'engine-version': Flags.string({
    description: 'engine version or constraint, e.g. 1.9.8 or "~> 1.9.0"',
    aliases: ['terraform-version'],
  }),
  'trigger-prefix': Flags.string({
    description: 'path prefix that triggers runs (repeatable)',
    multiple: true,
    multipleNonGreedy: true,
  }),
  'trigger-pattern': Flags.string({
    description: 'glob pattern that triggers runs (repeatable)',
    multiple: true,
    multipleNonGreedy: true,
  }),
  'working-directory': Flags.string({ description: 'relative path runs execute in' }),
  tag: Flags.string({
    description: 'key-value tag binding key=value (repeatable)',
    multiple: true,
    multipleNonGreedy: true,
  }),
  'vcs-identifier': Flags.string({ description: 'VCS repository, ORG/REPO' }),
  'vcs-oauth-token': Flags.string({ description: 'OAuth token id (ot-...) of the VCS connection' }),
  'vcs-branch': Flags.string({ description: 'VCS branch (default branch when empty)' }),
  'vcs-ingress-submodules': Flags.boolean({ description: 'fetch submodules', allowNo: true }),
  'vcs-tags-regex': Flags.string({ description: 'regular expression of Git tags that trigger runs' }),
};

/** The values of those flags as oclif parses them (any may be missing), and `update`'s --vcs-app-installation. */
export type WorkspaceSettingValues = Partial<Interfaces.InferredFlags<typeof workspaceSettingFlags>> & {
  'vcs-app-installation'?: string;
};

/** `key=value` (or `key`, an empty value) as a tag binding. */
export function parseTagFlag(text: string): { key: string; value: string } {
  const eq = text.indexOf('=');
  const key = (eq === -1 ? text : text.slice(0, eq)).trim();
  if (key === '') throw usageError(`invalid tag ${JSON.stringify(text)}: use key=value`);
  return { key, value: eq === -1 ? '' : text.slice(eq + 1).trim() };
}

export const tagBindingsRelationship = (tags: { key: string; value: string }[]) => ({
  data: tags.map((t) => ({ type: 'tag-bindings', attributes: { key: t.key, value: t.value } })),
});

/**
 * Turns the flags into a workspace request: attributes (only those given) and relationships
 * (project by id or name, tag bindings). Names are resolved through the API.
 */
export async function workspaceRequestFromFlags(
  client: BerthClient,
  organization: string | undefined,
  f: WorkspaceSettingValues,
): Promise<{ attributes: Record<string, unknown>; relationships: Record<string, unknown> }> {
  const needOrg = (what: string) => {
    if (!organization) throw usageError(`${what} by name needs the organization: pass --org`);
    return organization;
  };
  const attributes: Record<string, unknown> = {
    description: f.description,
    'execution-mode': f['execution-mode'],
    'auto-apply': f['auto-apply'],
    'auto-apply-run-trigger': f['auto-apply-run-trigger'],
    'allow-destroy-plan': f['allow-destroy-plan'],
    'assessments-enabled': f.assessments,
    'auto-destroy-at': f['auto-destroy-at'],
    'auto-destroy-activity-duration': f['auto-destroy-duration'],
    'file-triggers-enabled': f['file-triggers'],
    'global-remote-state': f['global-remote-state'],
    'queue-all-runs': f['queue-all-runs'],
    'speculative-enabled': f.speculative,
    'terraform-version': f['engine-version'],
    'trigger-prefixes': f['trigger-prefix'],
    'trigger-patterns': f['trigger-pattern'],
    'working-directory': f['working-directory'],
  };
  if (f['agent-pool']) {
    attributes['agent-pool-id'] = /^apool-/.test(f['agent-pool'])
      ? f['agent-pool']
      : await resolveAgentPoolId(client, needOrg('--agent-pool'), f['agent-pool']);
  }
  const vcs: Record<string, unknown> = {};
  if (f['vcs-identifier'] !== undefined) vcs.identifier = f['vcs-identifier'];
  if (f['vcs-oauth-token'] !== undefined) vcs['oauth-token-id'] = f['vcs-oauth-token'];
  if (f['vcs-branch'] !== undefined) vcs.branch = f['vcs-branch'];
  if (f['vcs-ingress-submodules'] !== undefined) vcs['ingress-submodules'] = f['vcs-ingress-submodules'];
  if (f['vcs-tags-regex'] !== undefined) vcs['tags-regex'] = f['vcs-tags-regex'];
  if (f['vcs-app-installation'] !== undefined) vcs['github-app-installation-id'] = f['vcs-app-installation'];
  if (Object.keys(vcs).length > 0) attributes['vcs-repo'] = vcs;

  const relationships: Record<string, unknown> = {};
  if (f.project) {
    const id = /^prj-[A-Za-z0-9]{16}$/.test(f.project)
      ? f.project
      : await resolveProjectId(client, needOrg('--project'), f.project);
    relationships.project = { data: { type: 'projects', id } };
  }
  if (f.tag) relationships['tag-bindings'] = tagBindingsRelationship(f.tag.map(parseTagFlag));
  return { attributes, relationships };
}
