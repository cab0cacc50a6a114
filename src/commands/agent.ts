import { Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { survivesUnhandledRejections } from '../cli/last-resort.js';
import { chooseSandbox, sandboxFlags, sandboxLine } from '../cli/runs/sandbox-flags.js';
import { findTerraformBinary } from '../cli/runs/terraform-binary.js';

export default class Agent extends BerthCommand<typeof Agent> {
  static override summary = 'Execute the runs of an agent pool on this machine (EXPERIMENTAL).';
  static override description =
    "Registers with berth (--server) as an agent of the pool whose agent token is given (--token or BERTH_TOKEN; `berth agent-pool tokens create POOL` makes one), pings it every few seconds, and executes the plans and applies of the pool's workspaces (execution mode agent) with the terraform binary: the same executor as `berth serve --execute-runs`, over berth's agent protocol. The server needs no terraform binary of its own: without one (or with --no-execute-runs) it still queues the runs of agent workspaces for their agents. Stops cleanly on SIGINT or SIGTERM: claims no more runs, lets those under way finish, then tells berth it exited. An agent that stops pinging (killed, its machine lost) is marked exited by berth after its --agent-timeout, and the runs it was executing end errored.";
  static override examples = [
    '<%= config.bin %> agent --server https://berth.example.com --token "$AGENT_TOKEN"',
    '<%= config.bin %> agent --server https://berth.example.com --token "$AGENT_TOKEN" --name builder-1 --concurrency 4',
    'BERTH_TOKEN="$AGENT_TOKEN" <%= config.bin %> agent --server berth.internal:8080 --terraform-binary /opt/terraform/1.9/terraform',
    '<%= config.bin %> agent --server https://berth.example.com --token "$AGENT_TOKEN" --run-network none',
  ];
  static override flags = {
    name: Flags.string({ description: 'the name berth shows for this agent (default: its id)' }),
    concurrency: Flags.integer({ description: 'runs executing at once', default: 1, min: 1, max: 64 }),
    'terraform-binary': Flags.string({
      description: 'the terraform binary that executes runs (default: terraform on the PATH)',
    }),
    hostname: Flags.string({
      description:
        "a name runs' terraform_remote_state may give for berth, besides the --server URL's host (repeat it, or separate names with commas)",
      multiple: true,
    }),
    ...sandboxFlags,
  };

  async run(): Promise<void> {
    const { server, token } = this.flags;
    if (!server) this.error('berth agent needs --server URL: the berth that queues the runs', { exit: 2 });
    if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol))
      this.error(`not a valid server URL: ${server} (use https://HOST[:PORT])`, { exit: 2 });
    if (!token) this.error('berth agent needs an agent token: --token or BERTH_TOKEN', { exit: 2 });
    const given = this.flags['terraform-binary'];
    const terraformPath =
      findTerraformBinary(given) ??
      this.error(
        given
          ? `--terraform-binary: ${given} is not an executable file`
          : 'berth agent needs a terraform binary: none on the PATH (give one with --terraform-binary)',
        { exit: 2 },
      );
    const sandbox = chooseSandbox(this.flags, terraformPath);
    if (sandbox.problem !== null) this.error(`berth agent cannot execute runs safely: ${sandbox.problem}`, { exit: 2 });
    const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
    survivesUnhandledRejections(log);
    if (!sandbox.config) log(`warning: runs execute ${sandboxLine(null)}`);
    const { startAgent } = await import('../runner/agent.js');
    const { AgentProtocolError } = await import('../runner/http-port.js');
    const agent = await startAgent({
      server,
      token,
      name: this.flags.name,
      concurrency: this.flags.concurrency,
      terraformPath,
      sandbox: sandbox.config,
      hostnames: (this.flags.hostname ?? [])
        .flatMap((h) => h.split(','))
        .map((h) => h.trim())
        .filter(Boolean),
      log,
    }).catch((err: unknown) => {
      if (err instanceof AgentProtocolError && err.status === 401)
        return this.error(
          `${server} refused the agent token: give a token of an agent pool (berth agent-pool tokens create POOL)`,
          {
            exit: 6,
          },
        );
      if (err instanceof AgentProtocolError && err.status === 404)
        return this.error(`${server} has no agent protocol (/api/agent): is it a berth with agents?`, { exit: 2 });
      if (err instanceof AgentProtocolError) return this.error(err.message, { exit: 1 });
      return this.error(`cannot reach ${server}: ${(err as Error)?.message ?? String(err)}`, { exit: 7 });
    });
    const signalled = new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        log(`received ${signal}: claiming no more runs, waiting for those under way`);
        resolve();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    const r = agent.registration;
    log(
      `berth agent ${r.name} (${r.id}) of pool ${r.agentPool.name} on ${server}: executing runs with ${terraformPath}, at most ${this.flags.concurrency} at once, ${sandboxLine(sandbox.config)}`,
    );
    const failed = await Promise.race([signalled.then(() => agent.stop()), agent.done]).then(
      () => null,
      (err: unknown) => err as Error,
    );
    if (failed) this.error(failed.message, { exit: 6 });
    log('berth agent stopped');
  }
}
