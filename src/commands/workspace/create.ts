import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { canPrompt, confirm, input, select, usageError } from '../../cli/common/prompts.js';
import { withNames, workspaceFields } from '../../cli/views/workspace.js';
import { workspaceRequestFromFlags, workspaceSettingFlags } from '../../cli/workspaces/workspace-flags.js';
import { AgentPoolsClient, WorkspacesClient } from '../../client/workspaces.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { listAllProjects } from '../../client/projects.js';
import type { ProjectAttributes } from '../../client/resources.js';

export default class WorkspaceCreate extends BerthCommand<typeof WorkspaceCreate> {
  static override summary = 'Create a workspace.';
  static override description =
    'Creates a workspace in the organization (--org), in its default project unless --project names one. On a terminal without NAME, asks for the name, project, execution mode (and agent pool), description, auto-apply and tags, shows a summary and asks to confirm. Never prompts when stdin is not a terminal or with --json.';
  static override examples = [
    '<%= config.bin %> workspace create',
    '<%= config.bin %> workspace create app-prod --org acme --project Platform --tag env=prod --auto-apply',
    '<%= config.bin %> workspace create runner --org acme --execution-mode agent --agent-pool builders',
    '<%= config.bin %> workspace create app --org acme --vcs-identifier acme/app --vcs-oauth-token ot-123 --vcs-branch main',
  ];
  static override args = { name: Args.string({ description: 'workspace name (letters, digits, -, _)' }) };
  static override flags = {
    ...workspaceSettingFlags,
    'source-name': Flags.string({ description: 'name of the creating application ("Created via ...")' }),
    'source-url': Flags.string({ description: 'URL of the creating application' }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    let flags = { ...this.flags };
    let name = this.args.name;
    if (!name) {
      if (!canPrompt(this.flags))
        throw usageError('a workspace NAME is required when not on a terminal (or with --json)');
      // Loaded only when the flow runs, like the prompt library itself.
      const { interactiveCreateFlow } = await import('../../cli/workspaces/workspace-create-flow.js');
      const answers = await interactiveCreateFlow(
        { input, select, confirm, note: (line) => this.note(line) },
        {
          projects: () => projectChoices(client, org),
          agentPools: () => poolChoices(client, org),
          nameTaken: (candidate) => workspaceExists(client, org, candidate),
        },
        flags,
      );
      if (!answers) throw usageError('aborted');
      name = answers.name;
      flags = { ...flags, ...answers };
    }
    const { attributes, relationships } = await workspaceRequestFromFlags(client, org, flags);
    attributes.name = name;
    attributes['source-name'] = flags['source-name'];
    attributes['source-url'] = flags['source-url'];
    const workspaces = new WorkspacesClient(client);
    const { data } = await workspaces.create(org, attributes, relationships);
    // The human view names the project and the lock holder: one more read, with includes.
    const shown = this.jsonMode ? { data, included: [] } : await workspaces.get({ id: data.id }, withNames());
    this.print(
      data,
      () => `Created workspace ${data.attributes.name} (${data.id}).\n${workspaceFields(shown.data, shown.included)}`,
    );
  }
}

/** The projects to pick from; the default project alone when the projects list is not served. */
async function projectChoices(
  client: BerthClient,
  org: string,
): Promise<{ id: string; name: string; isDefault?: boolean }[]> {
  try {
    const projects = await listAllProjects(client, org);
    if (projects.length > 0)
      return projects.map((p) => ({
        id: p.id,
        name: String(p.attributes.name),
        isDefault: p.attributes['is-default'] === true,
      }));
  } catch {
    // An older server without GET /organizations/:org/projects: fall back to the default project.
  }
  const { data, included } = await client.organizations.get(org, 'default-project');
  const rel = data.relationships?.['default-project']?.data;
  const id = rel && !Array.isArray(rel) ? rel.id : '';
  const project = included?.find((r) => r.id === id) as Resource<ProjectAttributes> | undefined;
  return [{ id, name: String(project?.attributes.name ?? 'Default Project'), isDefault: true }];
}

async function poolChoices(client: BerthClient, org: string): Promise<{ id: string; name: string }[]> {
  return (await new AgentPoolsClient(client).list(org)).map((p) => ({ id: p.id, name: String(p.attributes.name) }));
}

/** Whether ORG has a workspace named NAME; when the check fails (404 or otherwise), the create itself decides. */
async function workspaceExists(client: BerthClient, org: string, name: string): Promise<boolean> {
  try {
    await client.get(`/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(name)}`);
    return true;
  } catch {
    return false;
  }
}
