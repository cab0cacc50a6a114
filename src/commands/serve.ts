import { readFileSync } from 'node:fs';
import { findTerraformBinary } from '../cli/terraform-binary.js';
import { Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { DatabaseUnreachableError } from '../store/database-errors.js';
import { DEFAULT_STATE_URL_TTL_SECONDS, MAX_STATE_URL_TTL_SECONDS } from '../domain/state-url.js';

export default class Serve extends BerthCommand<typeof Serve> {
  static override summary = 'Run the HTTP API server (HCP Terraform API v2 dialect).';
  /** Sets berth up: may create the SQLite database file. */
  static override createsDatabase = true;
  static override description =
    'Serves /api/v2 on the given address (loopback by default) over the database file, over HTTPS with --tls-cert and --tls-key; warns when it listens beyond loopback without TLS. Limits each token to --rate-limit requests per second (30; 0 turns it off), signs hosted-state URLs for --state-url-ttl seconds (300), and bounds header size, URL length (8 KiB) and the time clients take to send requests. On a database without a site-administrator token, it creates one and prints it once on stderr. Stops cleanly on SIGINT or SIGTERM: in-flight requests finish, then the database is closed.';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 9000 --db /var/lib/berth/berth.db',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --edition hosted',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8443 --tls-cert cert.pem --tls-key key.pem',
    '<%= config.bin %> serve --rate-limit 0',
    '<%= config.bin %> serve --state-url-ttl 60',
    '<%= config.bin %> serve --durability normal',
    '<%= config.bin %> serve --host 0.0.0.0 --database postgres://berth@db.internal:5432/berth',
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
    'execute-runs': Flags.boolean({
      description:
        'EXPERIMENTAL: execute runs with the terraform binary (PATH, or --terraform-binary); the entitlement set then answers operations: true, so the Terraform CLI runs plans and applies here. Whoever may queue a run may run code on this machine (README, "Executing runs")',
      default: false,
      env: 'BERTH_EXECUTE_RUNS',
    }),
    'terraform-binary': Flags.string({
      description: 'the terraform binary that executes runs (default: terraform on the PATH)',
    }),
    'run-concurrency': Flags.integer({
      description: 'runs executing at once (--execute-runs)',
      default: 2,
      min: 1,
      max: 64,
    }),
    'run-time-limit': Flags.integer({
      description: 'minutes a plan or an apply may take before it is stopped (--execute-runs)',
      default: 60,
      min: 1,
    }),
    'run-heartbeat-timeout': Flags.integer({
      description:
        'seconds without a heartbeat after which a planning or applying run counts as interrupted (its executor crashed) and is ended errored, its workspace unlocked (--execute-runs)',
      default: 60,
      min: 2,
      env: 'BERTH_RUN_HEARTBEAT_TIMEOUT',
    }),
    'agent-timeout': Flags.integer({
      description:
        'seconds without a ping after which a berth agent counts as gone (exited): the runs it was executing end errored, their workspaces unlocked (--execute-runs)',
      default: 30,
      min: 1,
      env: 'BERTH_AGENT_TIMEOUT',
    }),
    'keep-alive-timeout': Flags.integer({
      description: 'seconds an idle keep-alive connection stays open',
      default: 5,
      min: 1,
      env: 'BERTH_KEEP_ALIVE_TIMEOUT',
    }),
  };

  /** The terraform binary for --execute-runs (--terraform-binary, else the PATH's), or a clear stop. */
  private findTerraform(): string {
    const given = this.flags['terraform-binary'];
    return (
      findTerraformBinary(given) ??
      this.error(
        given
          ? `--execute-runs: ${given} is not an executable file`
          : '--execute-runs needs a terraform binary: none on the PATH (give one with --terraform-binary)',
        { exit: 2 },
      )
    );
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

  async run(): Promise<void> {
    const { startServer, ServeSetupError } = await import('../api/serve.js');
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const tls = this.readTls();
    const executeRuns = this.flags['execute-runs'] ? this.findTerraform() : undefined;
    const server = await startServer({
      host: this.flags.host,
      port: this.flags.port,
      database: this.databaseLocation(),
      durability: this.flags.durability as 'full' | 'normal' | undefined,
      edition: this.flags.edition as 'self-hosted' | 'hosted' | undefined,
      log,
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
              terraformPath: executeRuns,
              concurrency: this.flags['run-concurrency'],
              timeLimitMs: this.flags['run-time-limit'] * 60_000,
              heartbeatTimeoutMs: this.flags['run-heartbeat-timeout'] * 1000,
            },
      agentTimeoutMs: this.flags['agent-timeout'] * 1000,
      limits: {
        maxHeaderSize: this.flags['max-header-size'],
        headersTimeoutMs: this.flags['headers-timeout'] * 1000,
        requestTimeoutMs: this.flags['request-timeout'] * 1000,
        keepAliveTimeoutMs: this.flags['keep-alive-timeout'] * 1000,
      },
    }).catch((err: unknown) => {
      if (err instanceof ServeSetupError) return this.error(err.message, { exit: 2 });
      if (err instanceof DatabaseUnreachableError) return this.error(err.message, { exit: 7 });
      throw err;
    });
    if (server.createdToken) {
      log('');
      log('A site-administrator token was created for this database. It is shown only this once:');
      log('');
      log(`    ${server.createdToken}`);
      log('');
      log('Use it with --token or BERTH_TOKEN, e.g. to create users and their tokens.');
      log('');
    }
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
    const durability = server.durability ? ` (durability ${server.durability})` : '';
    log(
      executeRuns
        ? `executing runs (experimental) with ${executeRuns}, at most ${this.flags['run-concurrency']} at once`
        : 'not executing runs: the Terraform CLI runs plans and applies locally (--execute-runs to change it)',
    );
    log(`berth listening on ${server.url} (${server.edition} edition), database ${server.database}${durability}`);
    await stopped;
    log('berth stopped');
  }
}
