import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { executedByOf, isExecutedRun, runFields } from '../../cli/views/run.js';
import { RunsClient } from '../../client/runs.js';
import { RunHistoryClient } from '../../client/run-history.js';
import { commentsSection, historyOf } from '../../cli/views/run-history.js';
import { WorkspaceStateClient } from '../../client/state.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { AgentPoolsClient, WorkspacesClient } from '../../client/workspaces.js';

export default class RunShow extends BerthCommand<typeof RunShow> {
  static override summary =
    'Show a run: recorded, or executed by berth (where it executed: serve or an agent; its plan, apply and actions), and its comments.';
  static override examples = [
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN --json',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    const { data } = await new WorkspaceStateClient(client).getRun(this.args.run);
    const ws = data.relationships?.workspace?.data;
    // A person reads the workspace's name: one more read (runs have no workspace include).
    const wsDoc =
      this.jsonMode || !ws || Array.isArray(ws)
        ? undefined
        : (await new WorkspacesClient(client).get({ id: ws.id })).data;
    const name = wsDoc ? String(wsDoc.attributes.name) : undefined;
    // An executed run: its plan and apply (status, resource counts).
    const runs = new RunsClient(client);
    const phases =
      this.jsonMode || !isExecutedRun(data)
        ? undefined
        : { plan: await runs.phase(data.id, 'plan'), apply: await runs.phase(data.id, 'apply') };
    const waiting = phases && wsDoc ? await waitingForAgent(client, data.attributes.status, wsDoc) : undefined;
    // Executed by an agent: its pool's name (a pool the caller may not read keeps its id).
    const poolId = phases ? executedByOf(data)?.['agent-pool-id'] : null;
    const poolName = poolId
      ? await new AgentPoolsClient(client)
          .get(poolId)
          .then((p) => String(p.data.attributes.name))
          .catch(() => undefined)
      : undefined;
    // Its comments, with who wrote them and the action they came with (from its events).
    const history = this.jsonMode ? undefined : await new RunHistoryClient(client).events(data.id);
    const comments = history ? commentsSection(historyOf(history.data, history.included)) : '';
    // Who confirmed its apply: the user's name (a user the caller may not read keeps its id).
    const confirmer = phases ? data.relationships?.['confirmed-by']?.data : undefined;
    const confirmedBy =
      confirmer && !Array.isArray(confirmer)
        ? await client
            .get(`/users/${encodeURIComponent(confirmer.id)}`)
            .then((u) => String(u.data.attributes.username))
            .catch(() => undefined)
        : undefined;
    this.print(data, () => runFields(data, name, phases, waiting, poolName, confirmedBy) + comments);
  }
}

/**
 * A queued run of a workspace whose runs agents execute waits for an agent of its pool (serve
 * never takes it): which pool, and whether any of its agents is running (`agent-count`).
 */
async function waitingForAgent(client: BerthClient, status: unknown, ws: Resource): Promise<string | undefined> {
  if (!['plan_queued', 'apply_queued'].includes(String(status))) return undefined;
  const pool = ws.relationships?.['agent-pool']?.data;
  if (ws.attributes['execution-mode'] !== 'agent' || !pool || Array.isArray(pool)) return undefined;
  const { data } = await new AgentPoolsClient(client).get(pool.id);
  const running = Number(data.attributes['agent-count'] ?? 0);
  return running > 0
    ? `for an agent of pool ${data.attributes.name} (${running} running)`
    : `for an agent of pool ${data.attributes.name}: none is running (start one: berth agent --server URL --token AGENT_TOKEN)`;
}
