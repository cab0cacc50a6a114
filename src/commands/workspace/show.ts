import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolOf, workspaceExtras } from '../../cli/output/related-names.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { withNames, workspaceFields } from '../../cli/views/workspace.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { BerthError } from '../../domain/common/errors.js';
import { relativeTime } from '../../cli/output/human-time.js';

/** The Drift line: what the workspace's current health assessment found (hosted edition). */
async function driftOf(client: BerthClient, ws: Resource): Promise<string | null> {
  const rel = ws.relationships?.['current-assessment-result']?.data;
  if (!rel || Array.isArray(rel)) return null;
  try {
    const a = (await client.get(`/assessment-results/${encodeURIComponent(rel.id)}`)).data.attributes;
    const when = `assessed ${relativeTime(String(a['created-at']))}`;
    if (a.succeeded !== true)
      return `unknown: the assessment failed (${typeof a['error-msg'] === 'string' ? a['error-msg'] : 'no message'}), ${when}`;
    return a.drifted ? `drifted: resources changed outside of Terraform, ${when}` : `none, ${when}`;
  } catch (err) {
    if (!(err instanceof BerthError)) throw err;
    return null;
  }
}

export default class WorkspaceShow extends BerthCommand<typeof WorkspaceShow> {
  static override summary = 'Show a workspace.';
  static override description =
    'With --json, prints the workspace resource, with or without --include (which adds the related resources to the human view and their ids to the relationships). --json-document prints the whole JSON:API document as the API answers it: {"data": <the workspace>, "included": [<the included resources>]}.';
  static override examples = [
    '<%= config.bin %> workspace show app-prod --org acme',
    '<%= config.bin %> workspace show acme/app-prod --include project,effective_tag_bindings',
    '<%= config.bin %> workspace show ws-6jrRyVDv1J8zQMB5 --json',
    '<%= config.bin %> workspace show acme/app-prod --include project --json-document',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    include: Flags.string({
      description: 'related resources to include, comma-separated (e.g. project,organization,effective_tag_bindings)',
    }),
    'json-document': Flags.boolean({
      description: 'print the whole JSON:API document, {"data": ..., "included": [...]} (implies --json)',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const document = this.flags['json-document'];
    if (document) this.flags.json = true;
    // A person reads names: the project's and the lock holder's come in the same request.
    const include = this.jsonMode ? this.flags.include : withNames(this.flags.include);
    const client = await this.client();
    const result = await new WorkspacesClient(client).get(ref, include);
    const pool = this.jsonMode ? null : await agentPoolOf(client, result.data, 'agent-pool');
    const extras = this.jsonMode
      ? {}
      : { ...(await workspaceExtras(client, result.data)), drift: await driftOf(client, result.data) };
    this.print(document ? { data: result.data, included: result.included ?? [] } : result.data, () =>
      workspaceFields(result.data, [...(result.included ?? []), ...(pool ? [pool] : [])], extras),
    );
  }
}
