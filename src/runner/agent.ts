import { Executor } from './executor.js';
import { AgentProtocolError, HttpPort, type Registration } from './http-port.js';
import type { SandboxConfig } from './sandbox.js';

/**
 * `berth agent` (commands/agent.ts): registers with the pool of its token, pings every few
 * seconds (the interval berth answers at registration), and runs the Executor of
 * `serve --execute-runs` over the agent protocol (http-port.ts), so the runs of the pool's
 * workspaces execute on this machine. Stops when told to (`stop`: no more claims, the runs under
 * way finish, then an `exited` ping), or when berth refuses the token (deleted: `failed`).
 */
export interface AgentOptions {
  server: string;
  token: string;
  name?: string;
  concurrency: number;
  terraformPath: string;
  /** The sandbox of every phase (sandbox.ts); null: none (`--sandbox off`). */
  sandbox?: SandboxConfig | null;
  /** Names terraform in a run reaches berth by (besides the server URL's host): `--hostname`. */
  hostnames?: string[];
  log: (line: string) => void;
  fetchImpl?: typeof fetch;
}

export interface RunningAgent {
  registration: Registration;
  /** Settles when the agent stopped: by `stop`, or because berth refused it (rejects then). */
  done: Promise<void>;
  stop(): Promise<void>;
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const port = new HttpPort(options.server, options.token, options.fetchImpl);
  let registration = await port.register(options.name);
  const executor = new Executor(port, {
    terraformPath: options.terraformPath,
    sandbox: options.sandbox,
    concurrency: options.concurrency,
    pollMs: Math.min(1000, registration.pingIntervalMs),
    heartbeatTimeoutMs: registration.pingIntervalMs * 4,
    name: registration.id,
    log: options.log,
    // terraform in a run reaches berth (terraform_remote_state) through the server URL, under its
    // host and the names given, with the phase's run token (run-folder.ts, cliConfigText).
    apiUrl: options.server,
    hosts: [new URL(options.server).host, ...(options.hostnames ?? [])],
    ...(process.env.SSL_CERT_FILE ? { caFile: process.env.SSL_CERT_FILE } : {}),
  });
  let settle!: (err?: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err ? reject(err) : resolve());
  });
  let stopping: Promise<void> | null = null;
  let pinging = false;
  const stop = (err?: Error): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(timer);
      await executor.stop();
      if (!err) await port.ping('exited').catch((e) => options.log(`agent: the last ping failed: ${String(e)}`));
      settle(err);
    })();
    return stopping;
  };
  const registerAgain = async () => {
    try {
      registration = await port.register(options.name);
      options.log(`agent: berth had given this agent up; registered again as ${registration.id}`);
    } catch (err) {
      options.log(`agent: registering again failed (tried again at the next ping): ${String(err)}`);
    }
  };
  const ping = async () => {
    if (pinging || stopping) return;
    pinging = true;
    try {
      await port.ping();
    } catch (err) {
      if (err instanceof AgentProtocolError && err.status === 401) {
        void stop(new Error(`berth refused the agent token (deleted?): ${err.message}`));
      } else if (err instanceof AgentProtocolError && (err.status === 409 || err.status === 404)) {
        // Marked exited (silent for too long: 409), or deleted since (by a pool manager, or pruned
        // once stopped for longer than the retention: 404): the runs it had were ended; start afresh.
        await registerAgain();
      } else {
        options.log(`agent: ping failed: ${String(err)}`);
      }
    } finally {
      pinging = false;
    }
  };
  const pingNow = () => void ping().catch((err: unknown) => options.log(`agent: ping failed: ${String(err)}`));
  // Any call answered 409 (resumed after a SIGSTOP past --agent-timeout, its log write is the first
  // to hear it was given up): a ping now, which registers again, rather than at the next interval.
  port.onConflict = pingNow;
  const timer = setInterval(pingNow, registration.pingIntervalMs);
  executor.start();
  return { registration, done, stop: () => stop() };
}
