import { NAME_DETAIL, validWorkspaceName } from '../../domain/workspaces/workspace.js';
import { parseTagFlag, type WorkspaceSettingValues } from './workspace-flags.js';

/** The prompt functions the flow uses (the real ones from prompts.ts, or fakes in tests). */
export interface FlowPrompts {
  input(
    message: string,
    options?: { default?: string; validate?: (v: string) => true | string | Promise<true | string> },
  ): Promise<string>;
  /** `defaultValue`: the choice Enter takes (the first when absent). */
  select<T extends string>(message: string, choices: { name: string; value: T }[], defaultValue?: T): Promise<T>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  /** A line of the summary (stderr). */
  note(line: string): void;
}

export interface FlowData {
  /** The projects to choose from; `isDefault` marks the organization's default project. */
  projects(): Promise<{ id: string; name: string; isDefault?: boolean }[]>;
  agentPools(): Promise<{ id: string; name: string }[]>;
  /** Whether the organization already has a workspace of this name (checked as soon as it is typed). */
  nameTaken?(name: string): Promise<boolean>;
}

/** What the flow asked: the name, and flag values to merge over the given flags. */
export type CreateAnswers = WorkspaceSettingValues & { name: string };

const INHERIT = '(inherit)';

function validTags(text: string): true | string {
  if (text.trim() === '') return true;
  try {
    text.split(',').forEach((t) => parseTagFlag(t));
    return true;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * The interactive `workspace create`: name, project from a list, execution mode from a list,
 * agent pool when agent, description, auto-apply, tags, then a summary and a confirm. Fields
 * already given as flags are not asked. Returns flag values to merge over the given flags, or
 * null when the person declines at the end.
 */
export async function interactiveCreateFlow(
  p: FlowPrompts,
  data: FlowData,
  given: WorkspaceSettingValues,
): Promise<CreateAnswers | null> {
  const name = await p.input('Workspace name', {
    validate: async (v) => {
      if (!validWorkspaceName(v.trim())) return NAME_DETAIL;
      if (data.nameTaken && (await data.nameTaken(v.trim())))
        return `a workspace named ${v.trim()} already exists in this organization; choose another name`;
      return true;
    },
  });
  const out: CreateAnswers = { name: name.trim() };

  let projectLabel = given.project ?? 'the default project';
  if (given.project === undefined) {
    const projects = await data.projects();
    if (projects.length === 1) {
      out.project = projects[0].id;
      projectLabel = projects[0].name;
    } else {
      // The default project comes first and is what Enter takes, as without the prompt
      // (`workspace create NAME` puts the workspace there), whatever order projects were made in.
      const byDefault = [...projects.filter((pr) => pr.isDefault), ...projects.filter((pr) => !pr.isDefault)];
      const preselected = byDefault.find((pr) => pr.isDefault)?.id;
      out.project = await p.select(
        'Project',
        byDefault.map((pr) => ({ name: pr.isDefault ? `${pr.name} (default)` : pr.name, value: pr.id })),
        preselected,
      );
      const chosen = projects.find((pr) => pr.id === out.project);
      projectLabel = chosen ? chosen.name : out.project;
    }
  }

  let mode: string = given['execution-mode'] ?? INHERIT;
  if (given['execution-mode'] === undefined) {
    mode = await p.select('Execution mode', [
      { name: "inherit the project's (or organization's) default", value: INHERIT },
      // What each mode means for where runs execute (docs/api.md, "Executed runs").
      {
        name: 'remote: runs execute on the berth server (berth serve with terraform); it keeps the state',
        value: 'remote',
      },
      { name: 'local: runs execute on your machine or CI; berth keeps the state', value: 'local' },
      { name: "agent: runs execute on an agent pool's agents; berth keeps the state and the pool", value: 'agent' },
    ]);
    if (mode !== INHERIT) out['execution-mode'] = mode;
  }
  let poolLabel = given['agent-pool'];
  if (mode === 'agent' && given['agent-pool'] === undefined) {
    const pools = await data.agentPools();
    if (pools.length === 0)
      throw new Error(
        'agent mode needs an agent pool and this organization has none: create one with `berth agent-pool create NAME`',
      );
    out['agent-pool'] = await p.select(
      'Agent pool',
      pools.map((pool) => ({ name: `${pool.name}  ${pool.id}`, value: pool.id })),
    );
    poolLabel = pools.find((pool) => pool.id === out['agent-pool'])?.name ?? out['agent-pool'];
  }

  if (given.description === undefined) {
    const description = (await p.input('Description (optional)')).trim();
    if (description !== '') out.description = description;
  }
  if (given['auto-apply'] === undefined)
    out['auto-apply'] = await p.confirm('Apply automatically after a successful plan?', false);
  if (given.tag === undefined) {
    const tags = (await p.input('Tags, key=value separated by commas (optional)', { validate: validTags })).trim();
    if (tags !== '') out.tag = tags.split(',').map((t) => t.trim());
  }

  const merged = { ...given, ...out };
  p.note('');
  p.note(`  Name            ${merged.name}`);
  p.note(`  Project         ${projectLabel}`);
  p.note(
    `  Execution mode  ${merged['execution-mode'] ?? 'inherited from the project'}${poolLabel ? ` (pool ${poolLabel})` : ''}`,
  );
  p.note(`  Description     ${merged.description ?? '-'}`);
  p.note(`  Auto apply      ${merged['auto-apply'] ? 'yes' : 'no'}`);
  p.note(`  Tags            ${merged.tag?.length ? merged.tag.join(', ') : '-'}`);
  p.note('');
  if (!(await p.confirm('Create this workspace?', true))) return null;
  return out;
}
