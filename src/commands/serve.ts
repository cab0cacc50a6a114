import { Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { resolveDatabasePath } from '../store/paths.js';

export default class Serve extends BerthCommand<typeof Serve> {
  static override summary = 'Run the HTTP API server (HCP Terraform API v2 dialect).';
  static override description =
    'Serves /api/v2 on the given address over the database file. On a database without a site-administrator token, it creates one and prints it once on stderr. Stops cleanly on SIGINT or SIGTERM: in-flight requests finish, then the database is closed.';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 9000 --db /var/lib/berth/berth.db',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --edition hosted',
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
  };

  async run(): Promise<void> {
    const { startServer } = await import('../api/serve.js');
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const server = await startServer({
      host: this.flags.host,
      port: this.flags.port,
      dbPath: resolveDatabasePath(this.flags.db),
      edition: this.flags.edition as 'self-hosted' | 'hosted' | undefined,
      log,
      pruneIntervalMs: this.flags['prune-interval'] * 60_000,
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
    log(`berth listening on ${server.url} (${server.edition} edition)`);
    await stopped;
    log('berth stopped');
  }
}
