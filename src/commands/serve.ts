import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { survivesUnhandledRejections } from '../cli/last-resort.js';
import { chooseSandbox, sandboxFlags, sandboxLine } from '../cli/runs/sandbox-flags.js';
import { executableFile, terraformVersion } from '../cli/runs/terraform-binary.js';
import type { SandboxConfig } from '../runner/sandbox.js';
import type { LogFormat, LogLevel } from '../api/serve-log.js';
import { DatabaseUnreachableError, NewerSchemaError } from '../store/database-errors.js';
import { DEFAULT_STATE_URL_TTL_SECONDS, MAX_STATE_URL_TTL_SECONDS } from '../domain/state/state-url.js';

export default class Serve extends BerthCommand<typeof Serve> {
  static override summary = 'Run the HTTP API server (HCP Terraform API v2 dialect).';
  /** Sets berth up: may create the SQLite database file. */
  static override createsDatabase = true;
  static override description =
    'Serves /api/v2 on the given address (loopback by default) over the database file, over HTTPS with --tls-cert and --tls-key; warns when it listens beyond loopback without TLS. Limits each token to --rate-limit requests per second (30; 0 turns it off), signs hosted-state URLs for --state-url-ttl seconds (300), and bounds header size, URL length (8 KiB) and the time clients take to send requests. On a database without a site-administrator token, it creates one and prints it once on stderr. Executes runs (plans and applies of the Terraform CLI and of berth run start) with the terraform binary it finds (--terraform-binary, else terraform on the PATH), and says on stderr when it finds none; --no-execute-runs turns that off. Logs on stderr a line per request and per move of a run (queued, claimed by serve or an agent, planned, applied, errored, canceled, discarded, with the run, its workspace and organization); --log-format json writes each line as one JSON object (time, level, msg and the fields), --log-level leaves out what is below it. Stops cleanly on SIGINT or SIGTERM: in-flight requests finish, then the database is closed.';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 9000 --db /var/lib/berth/berth.db',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --edition hosted',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem',
    '<%= config.bin %> serve --rate-limit 0',
    '<%= config.bin %> serve --state-url-ttl 60',
    '<%= config.bin %> serve --durability normal',
    '<%= config.bin %> serve --database postgres://berth@db.internal/berth --secret-key-file /etc/berth/secret.key',
    '<%= config.bin %> serve --host 0.0.0.0 --database postgres://berth@db.internal:5432/berth',
    '<%= config.bin %> serve --hostname berth.example.com',
    '<%= config.bin %> serve --terraform-binary /opt/terraform/1.11.4/terraform',
    '<%= config.bin %> serve --no-execute-runs',
    '<%= config.bin %> serve --run-network none',
    '<%= config.bin %> serve --sandbox off',
    '<%= config.bin %> serve --smtp-url smtp://mail.internal:25 --smtp-from berth@example.com',
    '<%= config.bin %> serve --edition hosted --notification-private-destinations allow',
  ];
  static override flags = {
    host: Flags.string({ description: 'address to bind', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'port to listen on (0 picks a free one)', default: 8080, min: 0, max: 65535 }),
    edition: Flags.string({
      description: 'edition to behave as, stored in the database (default: what it stores, else self-hosted)',
      options: ['self-hosted', 'hosted'],
    }),
    'prune-interval': Flags.integer({
      description: 'minutes between runs of the data retention pruning task (self-hosted edition); 0 turns it off',
      default: 60,
      min: 0,
      env: 'BERTH_PRUNE_INTERVAL',
    }),
    'tls-cert': Flags.string({
      description: 'PEM certificate (chain) file: serve HTTPS (needs --tls-key)',
      env: 'BERTH_TLS_CERT',
    }),
    'tls-key': Flags.string({ description: 'PEM private key file of --tls-cert', env: 'BERTH_TLS_KEY' }),
    'rate-limit': Flags.integer({
      description:
        'requests per second per user (team, organization; per client address without a token) under /api/v2; 0 turns it off',
      default: 30,
      min: 0,
      env: 'BERTH_RATE_LIMIT',
    }),
    'max-connections-per-address': Flags.integer({
      description:
        'connections one client address may hold open at once; past it, its new ones are closed at once (behind a proxy, every client has its address); 0 turns it off',
      default: 256,
      min: 0,
      env: 'BERTH_MAX_CONNECTIONS_PER_ADDRESS',
    }),
    'read-cache': Flags.integer({
      description: 'GET answers kept for reuse while the database is unchanged (at most 1 s old); 0 turns it off',
      default: 1000,
      min: 0,
      env: 'BERTH_READ_CACHE',
    }),
    'state-url-ttl': Flags.integer({
      description: 'seconds the signed hosted-state upload and download URLs of state versions work',
      default: DEFAULT_STATE_URL_TTL_SECONDS,
      min: 1,
      max: MAX_STATE_URL_TTL_SECONDS,
      env: 'BERTH_STATE_URL_TTL',
    }),
    'max-header-size': Flags.integer({
      description: 'largest request line plus headers, in bytes (431 beyond)',
      default: 16384,
      min: 9216,
      env: 'BERTH_MAX_HEADER_SIZE',
    }),
    'headers-timeout': Flags.integer({
      description: 'seconds a client has to send its request headers',
      default: 30,
      min: 1,
      env: 'BERTH_HEADERS_TIMEOUT',
    }),
    'request-timeout': Flags.integer({
      description: 'seconds a client has to send its whole request, body included',
      default: 300,
      min: 1,
      env: 'BERTH_REQUEST_TIMEOUT',
    }),
    durability: Flags.string({
      description:
        'SQLite: "full" (default) flushes each commit to the disk before answering, so an acknowledged write survives a power cut; "normal" survives a crash of berth but may lose the last acknowledged writes on a power cut or operating system crash. Concurrent writes share one commit either way. PostgreSQL: the server\'s synchronous_commit decides',
      options: ['full', 'normal'],
      env: 'BERTH_DURABILITY',
    }),
    'secret-key-file': Flags.string({
      description:
        'the key file that encrypts sensitive variable values at rest (default: BERTH_SECRET_KEY, else the SQLite file with .key added); created at the first start of a new database. PostgreSQL needs one named, the same key on every instance. The start-up lines name it (never the key); a missing or wrong key stops serve',
      env: 'BERTH_SECRET_KEY_FILE',
    }),
    'execute-runs': Flags.boolean({
      description:
        'execute runs with the terraform binary (--terraform-binary, else terraform on the PATH): on by default when one is found, so the entitlement set answers operations: true and the Terraform CLI runs plans and applies here; --no-execute-runs turns it off: runs of workspaces in agent execution mode still queue for the agents of their pool (berth agent), other runs end errored at once, and the entitlement set answers operations: true only for organizations that send runs to agents (elsewhere the CLI runs plans and applies locally). Given explicitly without a binary, serve stops. Whoever may queue a run may run code on this machine (README, "Executing runs")',
      allowNo: true,
      env: 'BERTH_EXECUTE_RUNS',
    }),
    'terraform-binary': Flags.string({
      description: 'the terraform binary that executes runs (default: terraform on the PATH)',
    }),
    'run-concurrency': Flags.integer({
      description: 'runs executing at once',
      default: 2,
      min: 1,
      max: 64,
    }),
    'run-time-limit': Flags.integer({
      description: 'minutes a plan or an apply may take before it is stopped',
      default: 60,
      min: 1,
    }),
    'run-heartbeat-timeout': Flags.integer({
      description:
        'seconds without a heartbeat after which a planning or applying run counts as interrupted (its executor crashed) and is ended errored, its workspace unlocked',
      default: 60,
      min: 2,
      env: 'BERTH_RUN_HEARTBEAT_TIMEOUT',
    }),
    'assessment-interval': Flags.integer({
      description:
        'minutes between health assessments of a workspace (hosted edition, assessments-enabled, --execute-runs); 0 turns them off',
      default: 24 * 60,
      min: 0,
    }),
    'scheduler-interval-ms': Flags.integer({
      description: "milliseconds between the scheduler's rounds (auto-destroy, assessments); for tests",
      default: 60_000,
      min: 100,
      hidden: true,
    }),
    hostname: Flags.string({
      description:
        'a name clients reach this berth by (e.g. berth.example.com or localhost:8080; repeat it or separate names with commas): terraform in a run reaches berth under it, with the run token (--execute-runs)',
      multiple: true,
      env: 'BERTH_HOSTNAME',
    }),
    'agent-timeout': Flags.integer({
      description:
        'seconds without a ping after which a berth agent counts as gone (exited): the runs it was executing end errored, their workspaces unlocked (--execute-runs)',
      default: 30,
      min: 1,
      env: 'BERTH_AGENT_TIMEOUT',
    }),
    'agent-rate-limit': Flags.integer({
      description:
        'requests per second each agent token may make to the agent protocol (/api/agent); past it berth answers 429 and berth agent waits and retries; 0 turns it off',
      default: 1000,
      min: 0,
      env: 'BERTH_AGENT_RATE_LIMIT',
    }),
    'agent-retention': Flags.integer({
      description:
        'hours after its last ping after which an exited or errored berth agent is deleted (each berth agent start registers a new agent); 0 keeps them',
      default: 24,
      min: 0,
      env: 'BERTH_AGENT_RETENTION',
    }),
    'smtp-url': Flags.string({
      description:
        'the SMTP server of email notifications: smtp://HOST:PORT, smtp://USER:PASSWORD@HOST:PORT, or smtps:// (TLS from the start); without one, email notifications are recorded as skipped',
      env: 'BERTH_SMTP_URL',
    }),
    'smtp-from': Flags.string({
      description: "the sender of notification emails (default: berth@ the SMTP server's host)",
      env: 'BERTH_SMTP_FROM',
    }),
    'notification-private-destinations': Flags.string({
      description:
        'whether notification URLs may name private, loopback or link-local addresses (every address a name resolves to is checked, when saved and at each delivery); stored in the database. Unset: allowed on the self-hosted edition, refused on the hosted one',
      options: ['allow', 'deny'],
      env: 'BERTH_NOTIFICATION_PRIVATE_DESTINATIONS',
    }),
    'notification-interval-ms': Flags.integer({
      description: "milliseconds between the notification deliverer's rounds; for tests",
      default: 1000,
      min: 10,
      hidden: true,
    }),
    'log-format': Flags.string({
      description:
        'text (the lines as they always were; run lifecycle and request lines start with their time) or json (one object per line: time, level, msg, then the fields)',
      options: ['text', 'json'],
      default: 'text',
      env: 'BERTH_LOG_FORMAT',
    }),
    'log-level': Flags.string({
      description: 'leave out log lines below this level (warn: no request or run lifecycle lines but errored runs)',
      options: ['debug', 'info', 'warn', 'error'],
      default: 'info',
      env: 'BERTH_LOG_LEVEL',
    }),
    ...sandboxFlags,
    'keep-alive-timeout': Flags.integer({
      description: 'seconds an idle keep-alive connection stays open',
      default: 5,
      min: 1,
      env: 'BERTH_KEEP_ALIVE_TIMEOUT',
    }),
  };

  /**
   * The terraform binary that executes runs and its version: --terraform-binary, else terraform on
   * the PATH. Null (with why) when there is none, or it does not answer `terraform version -json`;
   * a stop (exit 2) instead when execution was asked for explicitly (--execute-runs or
   * --terraform-binary). Null without a word under --no-execute-runs.
   */
  private findTerraform():
    | { path: string; version: string; sandbox: SandboxConfig | null }
    | { path: null; why: string; remedy?: string; sandbox?: never }
    | null {
    const asked = this.flags['execute-runs'];
    if (asked === false) return null;
    const given = this.flags['terraform-binary'];
    const explicit = asked === true || given !== undefined;
    const fail = (why: string) => {
      if (explicit)
        return this.error(
          given !== undefined
            ? `--terraform-binary: ${why}`
            : `--execute-runs: ${why} (install Terraform on the PATH, or give one with --terraform-binary)`,
          { exit: 2 },
        );
      return {
        path: null,
        why,
        remedy:
          'install Terraform on the PATH (https://developer.hashicorp.com/terraform/install) or give one with --terraform-binary',
      } as const;
    };
    const path = executableFile(given, process.env.PATH ?? '');
    if (path === null)
      return fail(given !== undefined ? `${given} is not an executable file` : 'no terraform binary on the PATH');
    const version = terraformVersion(path);
    if (version === null) return fail(`${path} does not answer "terraform version -json"`);
    const sandbox = chooseSandbox(this.flags, path);
    if (sandbox.problem !== null) {
      if (explicit) return this.error(`--execute-runs: cannot execute runs safely: ${sandbox.problem}`, { exit: 2 });
      return { path: null, why: sandbox.problem };
    }
    return { path, version, sandbox: sandbox.config };
  }

  /** Reads the TLS files, or stops with a usage error that says which file and why. */
  private readTls(): { cert: Buffer; key: Buffer } | undefined {
    const cert = this.flags['tls-cert'];
    const key = this.flags['tls-key'];
    if (cert === undefined && key === undefined) return undefined;
    if (cert === undefined || key === undefined) {
      this.error('--tls-cert and --tls-key go together: give both to serve HTTPS, or neither', { exit: 2 });
    }
    const read = (file: string, what: string): Buffer => {
      try {
        return readFileSync(file);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        const why =
          e.code === 'ENOENT'
            ? 'no such file'
            : e.code === 'EACCES'
              ? 'permission denied'
              : e.code === 'EISDIR'
                ? 'it is a directory'
                : e.message;
        return this.error(`cannot read the TLS ${what} ${file}: ${why}`, { exit: 2 });
      }
    };
    return { cert: read(cert, 'certificate'), key: read(key, 'key') };
  }

  /** The --hostname names, each a host with an optional port (no scheme, no path). */
  private hostnames(): string[] {
    // From BERTH_HOSTNAME, oclif hands a multiple flag over as one string.
    const given = this.flags.hostname as string[] | string | undefined;
    const names = (Array.isArray(given) ? given : given === undefined ? [] : [given])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim().toLowerCase())
      .filter((v) => v !== '');
    for (const name of names) {
      if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$/.test(name))
        this.error(
          `--hostname ${JSON.stringify(name)}: give a host name with an optional port, e.g. berth.example.com or localhost:8080`,
          {
            exit: 2,
          },
        );
    }
    return names;
  }

  async run(): Promise<void> {
    const { startServer, ServeSetupError } = await import('../api/serve.js');
    const { serveLogger } = await import('../api/serve-log.js');
    const logger = serveLogger((text) => process.stderr.write(`${text}\n`), {
      format: this.flags['log-format'] as LogFormat,
      level: this.flags['log-level'] as LogLevel,
    });
    const log = logger.line;
    survivesUnhandledRejections(log);
    const tls = this.readTls();
    const terraform = this.findTerraform();
    const executeRuns = terraform !== null && terraform.path !== null ? terraform : undefined;
    // Why runs cannot execute, with what to do about it (a sandbox problem says its own remedy).
    const missing =
      terraform !== null && terraform.path === null
        ? `${terraform.why}${terraform.remedy ? `; ${terraform.remedy}` : ''}`
        : null;
    const hostnames = this.hostnames();
    const server = await startServer({
      host: this.flags.host,
      port: this.flags.port,
      database: this.databaseLocation(),
      durability: this.flags.durability as 'full' | 'normal' | undefined,
      secretKeyFile: this.flags['secret-key-file'],
      edition: this.flags.edition as 'self-hosted' | 'hosted' | undefined,
      log,
      logger,
      pruneIntervalMs: this.flags['prune-interval'] * 60_000,
      tls,
      rateLimit: this.flags['rate-limit'],
      maxConnectionsPerAddress: this.flags['max-connections-per-address'],
      readCacheEntries: this.flags['read-cache'],
      readCacheStatsFile: process.env.BERTH_READ_CACHE_STATS || undefined,
      stateUrlTtlSeconds: this.flags['state-url-ttl'],
      executeRuns:
        executeRuns === undefined
          ? undefined
          : {
              terraformPath: executeRuns.path,
              terraformVersion: executeRuns.version,
              concurrency: this.flags['run-concurrency'],
              timeLimitMs: this.flags['run-time-limit'] * 60_000,
              heartbeatTimeoutMs: this.flags['run-heartbeat-timeout'] * 1000,
              hostnames,
              tlsCertFile: this.flags['tls-cert'] && resolve(this.flags['tls-cert']),
              sandbox: executeRuns.sandbox,
            },
      scheduler: {
        intervalMs: this.flags['scheduler-interval-ms'],
        assessmentIntervalMinutes: this.flags['assessment-interval'],
      },
      notifications: {
        smtpUrl: this.flags['smtp-url'] || undefined,
        emailFrom: this.flags['smtp-from'] || undefined,
        privateDestinations: this.flags['notification-private-destinations'] as 'allow' | 'deny' | undefined,
        intervalMs: this.flags['notification-interval-ms'],
      },
      agentTimeoutMs: this.flags['agent-timeout'] * 1000,
      agentRetentionMs: this.flags['agent-retention'] * 3_600_000,
      agentRateLimit: this.flags['agent-rate-limit'],
      limits: {
        maxHeaderSize: this.flags['max-header-size'],
        headersTimeoutMs: this.flags['headers-timeout'] * 1000,
        requestTimeoutMs: this.flags['request-timeout'] * 1000,
        keepAliveTimeoutMs: this.flags['keep-alive-timeout'] * 1000,
      },
    }).catch((err: unknown) => {
      if (err instanceof ServeSetupError) return this.error(err.message, { exit: 2 });
      if (err instanceof DatabaseUnreachableError) return this.error(err.message, { exit: 7 });
      if (err instanceof NewerSchemaError) return this.error(err.message, { exit: 2 });
      throw err;
    });
    // Written whatever --log-level says: the token is shown only this once.
    if (server.createdToken && logger.format === 'json')
      logger.entry(
        'info',
        'A site-administrator token was created for this database. It is shown only this once; use it with --token or BERTH_TOKEN',
        { token: server.createdToken },
        { always: true },
      );
    else if (server.createdToken)
      logger.raw(
        [
          '',
          'A site-administrator token was created for this database. It is shown only this once:',
          '',
          `    ${server.createdToken}`,
          '',
          'Use it with --token or BERTH_TOKEN, e.g. to create users and their tokens.',
          '',
        ].join('\n'),
      );
    // Handlers first, then the line that tells others we are ready: a supervisor may signal us
    // the moment it reads it.
    const stopped = new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        log(`received ${signal}, finishing in-flight requests`);
        server.close().then(resolve, resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    for (const line of server.secretKeyLines) log(line);
    const durability = server.durability ? ` (durability ${server.durability})` : '';
    if (executeRuns) {
      log(
        `executing runs with ${executeRuns.path} (Terraform ${executeRuns.version}), at most ${this.flags['run-concurrency']} at once, ${sandboxLine(executeRuns.sandbox)}`,
      );
      if (!executeRuns.sandbox) log(`warning: runs execute ${sandboxLine(null)}`);
    } else if (missing === null)
      log(
        'not executing runs (--no-execute-runs): runs of agent workspaces go to their agents (berth agent); elsewhere the Terraform CLI runs plans and applies locally',
      );
    else
      log(
        `cannot execute runs: ${missing}. Until then runs of agent workspaces go to their agents (berth agent), and elsewhere the Terraform CLI runs plans and applies locally`,
      );
    // Whatever --log-level says: the line that tells others serve is ready.
    logger.line(
      `berth listening on ${server.url} (${server.edition} edition), database ${server.database}${durability}`,
      {
        always: true,
      },
    );
    await stopped;
    log('berth stopped');
  }
}
