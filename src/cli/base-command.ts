import { Command, Flags, type Interfaces } from './oclif.js';
import { BerthClient } from '../client/client.js';
import { BerthError } from '../domain/common/errors.js';
import { HttpTransport } from '../client/transport.js';
import { DatabaseLocationError, resolveDatabaseLocation, type DatabaseLocation } from '../store/location.js';
import { configPath, readConfig } from './connection/config.js';
import { missingDatabaseProblem } from './connection/database-file.js';
import { unexpectedArgumentMessage } from './command-line/dispatch.js';
import { resolveConnection } from './connection/connection.js';
import { EXIT, exitCodeFor, isPromptInterrupt, messageFor } from './common/exit-codes.js';
import { limitMessage } from './flags/paging.js';
import { compileJq, JqFilterError, type JqFilter } from './output/jq-filter.js';
import {
  configureColour,
  OUTPUT_FORMATS,
  renderJson,
  renderYaml,
  selectColumns,
  setTableFormat,
  type OutputFormat,
} from './output/output.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BerthCommand)['baseFlags'] & T['flags']
>;
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * The arguments with oclif's reading of piped stdin into a missing argument turned off: in a
 * `while read` loop it would swallow the loop's input, and `echo x | berth workspace create` would
 * create `x`. Commands that take data from stdin say so and read it themselves (login, `-` files).
 */
function withoutStdin<A extends Record<string, object> | undefined>(args: A): A {
  if (!args) return args;
  return Object.fromEntries(Object.entries(args).map(([k, a]) => [k, { ...a, ignoreStdin: true }])) as A;
}

/**
 * The base of every berth command: the shared flags, the client (local or remote), output in
 * JSON or for humans, and errors mapped to a message and a stable exit code in one place.
 */
export abstract class BerthCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    server: Flags.string({
      description: 'URL of a berth server (or any HCP Terraform API v2 server); local mode when absent',
      env: 'BERTH_SERVER',
      helpGroup: 'GLOBAL',
    }),
    token: Flags.string({ description: 'API token to act as', env: 'BERTH_TOKEN', helpGroup: 'GLOBAL' }),
    org: Flags.string({ char: 'o', description: 'organization name', env: 'BERTH_ORG', helpGroup: 'GLOBAL' }),
    db: Flags.string({ description: 'local database file (local mode); wins over $BERTH_DB', helpGroup: 'GLOBAL' }),
    database: Flags.string({
      description:
        'database of local mode and serve: postgres://USER@HOST:PORT/DB for PostgreSQL, else a SQLite file path or sqlite:PATH (wins over --db)',
      env: 'BERTH_DATABASE_URL',
      helpGroup: 'GLOBAL',
    }),
    json: Flags.boolean({
      char: 'j',
      description: 'print machine-readable JSON on stdout (same as --output json)',
      default: false,
      helpGroup: 'GLOBAL',
    }),
    output: Flags.option({
      options: OUTPUT_FORMATS,
      description:
        'output format: table (for people), json, yaml, or csv (tables and fields); default from `config set output`',
      helpGroup: 'GLOBAL',
    })(),
    jq: Flags.string({
      description:
        'filter the JSON output with a jq expression (all of jq; implies --json), e.g. ".[].attributes.name"',
      helpGroup: 'GLOBAL',
    }),
    columns: Flags.string({
      description: 'table columns to show, comma-separated, e.g. name,locked (table and csv output)',
      helpGroup: 'GLOBAL',
    }),
    profile: Flags.string({
      description: 'named profile of defaults in the berth config file',
      env: 'BERTH_PROFILE',
      default: 'default',
      helpGroup: 'GLOBAL',
    }),
  };

  /** Commands that may name a profile that does not exist yet (they create it): config set, login. */
  static createsProfile = false;

  /**
   * Set-up commands, which may create a SQLite database file that does not exist yet (org create,
   * serve, restore); every other command refuses a missing file (cli/connection/database-file.ts).
   */
  static createsDatabase = false;

  protected flags!: BaseFlags<T>;
  protected args!: BaseArgs<T>;
  /** Every positional argument, in order (for commands that take a variable number). */
  protected positionals: string[] = [];
  private clientInstance?: BerthClient;
  /** The output format this invocation resolved to (flags, then the profile, then table). */
  protected outputFormat: OutputFormat = 'table';
  private jqFilter?: JqFilter;
  /** Where each resolved setting came from: a flag, a variable, a file, a profile, or the default. */
  protected sources: Record<'profile' | 'server' | 'token' | 'org' | 'output', string> = {
    profile: 'default',
    server: 'default (local mode)',
    token: 'none',
    org: 'not set',
    output: 'default',
  };

  public override async init(): Promise<void> {
    await super.init();
    configureColour();
    const { args, flags, argv } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (this.ctor as typeof BerthCommand).baseFlags,
      args: withoutStdin(this.ctor.args),
      strict: this.ctor.strict,
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
    this.positionals = argv as string[];
    selectColumns((flags as { columns?: string }).columns);
    // Server, token and organization may also come from the ecosystem's variables, the Terraform
    // credentials file and berth's config: resolve them once, here, for every command.
    const f = this.flags as {
      server?: string;
      token?: string;
      org?: string;
      json?: boolean;
      output?: OutputFormat;
      jq?: string;
      profile: string;
    };
    const config = readConfig(configPath());
    if (f.profile !== 'default' && !config.profiles[f.profile] && !(this.ctor as typeof BerthCommand).createsProfile)
      this.usageFailure(
        `no profile "${f.profile}" in ${configPath()}${Object.keys(config.profiles).length > 0 ? ` (profiles: ${Object.keys(config.profiles).join(', ')})` : ''}; create it with \`berth config set KEY VALUE --profile ${f.profile}\``,
      );
    const connection = resolveConnection(f, process.env, config, f.profile);
    f.server = connection.server;
    f.token = connection.token;
    f.org = connection.org;
    this.outputFormat = this.resolveOutput(f, connection.output);
    if (f.jq !== undefined)
      this.jqFilter = await compileJq(f.jq).catch((err: unknown) => {
        if (err instanceof JqFilterError) this.error(err.message, { exit: 2 });
        throw err;
      });
    this.recordSources(connection.sources, connection.output);
    setTableFormat(this.outputFormat === 'csv' ? 'csv' : 'table');
    f.json = this.outputFormat === 'json' || this.outputFormat === 'yaml';
  }

  private recordSources(resolved: Partial<Record<'server' | 'token' | 'org', string>>, profileOutput?: string): void {
    const given = (long: string, short?: string) =>
      this.argv.some(
        (a) =>
          a === `--${long}` ||
          a.startsWith(`--${long}=`) ||
          (short !== undefined && (a === `-${short}` || (a.startsWith(`-${short}`) && !a.startsWith('--')))),
      );
    const named = (long: string, env: string, short?: string) =>
      given(long, short) ? `flag --${long}` : `environment ${env}`;
    if (given('profile')) this.sources.profile = 'flag --profile';
    else if (process.env.BERTH_PROFILE) this.sources.profile = 'environment BERTH_PROFILE';
    for (const [key, env, short] of [
      ['server', 'BERTH_SERVER'],
      ['token', 'BERTH_TOKEN'],
      ['org', 'BERTH_ORG', 'o'],
    ] as const) {
      const from = resolved[key];
      if (from === undefined) continue;
      this.sources[key] = from.startsWith('flag or ')
        ? named(key, env, short)
        : from.replace(/^TF|^TFE/, (m) => `environment ${m}`);
    }
    if (given('jq')) this.sources.output = 'flag --jq';
    else if (given('json', 'j')) this.sources.output = 'flag --json';
    else if (given('output')) this.sources.output = 'flag --output';
    else if (profileOutput) this.sources.output = `profile ${(this.flags as { profile: string }).profile}`;
  }

  /** `--jq` implies JSON; `--json` is `--output json`; without either, the profile's output, else table. */
  private resolveOutput(f: { json?: boolean; output?: OutputFormat; jq?: string }, profile?: string): OutputFormat {
    if (f.json && f.output && f.output !== 'json')
      this.error(`--json and --output ${f.output} contradict each other`, { exit: 2 });
    if (f.jq !== undefined) {
      if (f.output && f.output !== 'json')
        this.error(`--jq filters JSON; it cannot be combined with --output ${f.output}`, { exit: 2 });
      return 'json';
    }
    if (f.json) return 'json';
    if (f.output) return f.output;
    return (OUTPUT_FORMATS as readonly string[]).includes(profile ?? '') ? (profile as OutputFormat) : 'table';
  }

  /** The API client: over HTTP with `--server`, else in-process over the local database. */
  protected async client(): Promise<BerthClient> {
    if (this.clientInstance) return this.clientInstance;
    const flags = this.flags as { server?: string; token?: string; db?: string; database?: string };
    if (flags.server) {
      if (!URL.canParse(flags.server) || !/^https?:$/.test(new URL(flags.server).protocol))
        this.error(`not a valid server URL: ${flags.server} (use https://HOST[:PORT], or HOST[:PORT])`, { exit: 2 });
      this.clientInstance = new BerthClient(new HttpTransport(flags.server), flags.token);
    } else {
      const { localTransport } = await import('./connection/local.js');
      this.clientInstance = new BerthClient(await localTransport(this.databaseLocation()), flags.token);
    }
    this.clientInstance.onListCut = (shown, total) => this.limitNote(shown, total);
    if (process.stderr.isTTY && !this.jsonMode) {
      this.clientInstance.onListProgress = (fetched, total, done) =>
        process.stderr.write(done ? '\r\x1b[K' : `\rFetching ${fetched}/${total}…`);
    }
    return this.clientInstance;
  }

  /** The database of local mode and serve: `--database` / `$BERTH_DATABASE_URL`, else the SQLite file. */
  protected databaseLocation(): DatabaseLocation {
    const flags = this.flags as { db?: string; database?: string };
    let location: DatabaseLocation;
    try {
      location = resolveDatabaseLocation(flags);
    } catch (err) {
      if (err instanceof DatabaseLocationError)
        this.error(`--database (or BERTH_DATABASE_URL): ${err.message}`, { exit: 2 });
      throw err;
    }
    const missing = (this.ctor as typeof BerthCommand).createsDatabase
      ? null
      : missingDatabaseProblem(location, flags, process.env);
    if (missing) this.usageFailure(missing);
    return location;
  }

  /**
   * The SQLite file of a command that works on the file itself (backup, restore). On PostgreSQL
   * it stops with a usage error that names the engine's own tools.
   */
  protected sqliteFile(command: string): string {
    const f = this.flags as { server?: string; db?: string; database?: string };
    // A server in effect (--server, BERTH_SERVER or the profile) wins over a database file from the
    // environment: someone who names a server means it, and must not get a copy of this machine's
    // file instead. Only a --db or --database on the command line names a file despite a server
    // that comes from elsewhere.
    const given = (name: string) => this.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (f.server && (given('server') || !(given('db') || given('database'))))
      this.error(
        `${command} works on local database files only, never through a server: ${given('server') ? '--server' : 'BERTH_SERVER (or the profile)'} names ${f.server}. ` +
          `Run it on the server's host with --db PATH and without --server`,
        { exit: 2 },
      );
    const location = this.databaseLocation();
    if (location.kind === 'sqlite') return location.path;
    return this.error(
      `${command} works on berth's SQLite file; for a PostgreSQL database use PostgreSQL's own tools (pg_dump, pg_restore)`,
      { exit: 2 },
    );
  }

  /** The organization from `--org` / `$BERTH_ORG`, or a usage error. */
  protected requireOrg(): string {
    const org = (this.flags as { org?: string }).org;
    if (!org)
      this.error('an organization is required: pass --org NAME, set BERTH_ORG, or `berth config set org NAME`', {
        exit: 2,
      });
    return org;
  }

  protected get jsonMode(): boolean {
    return Boolean((this.flags as { json?: boolean }).json);
  }

  /** Prints machine output (JSON, through --jq if given, or YAML), else the human rendering (table or CSV). */
  protected print(json: unknown, human: () => string): void {
    const text = this.render(json, human);
    // A jq filter that selects nothing prints nothing (not an empty line).
    if (text !== '' || !this.jqFilter) process.stdout.write(`${text}\n`);
  }

  private render(json: unknown, human: () => string): string {
    if (this.outputFormat === 'yaml') return renderYaml(json);
    if (!this.jsonMode) return human();
    if (!this.jqFilter) return renderJson(json);
    try {
      const { text, warnings } = this.jqFilter(json);
      if (warnings !== '') this.note(warnings);
      return text;
    } catch (err) {
      if (err instanceof JqFilterError && err.warnings !== '') this.note(err.warnings);
      return this.error((err as Error).message, { exit: 2 });
    }
  }

  /** When `--limit` cut a list: "Showing N of M" on stderr, for people only (--json, --jq, yaml: nothing). */
  protected limitNote(shown: number, total: number | null): void {
    if (!this.jsonMode) this.note(limitMessage(shown, total));
  }

  /** A diagnostic line on stderr (never on stdout, so --json output stays clean). */
  protected note(message: string): void {
    process.stderr.write(`${message}\n`);
  }

  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    // oclif's UnexpectedArgsError (its class name does not survive bundling; its message and `args` do).
    if (/^Unexpected arguments?: /.test(err.message) && Array.isArray((err as { args?: unknown }).args))
      return this.tooManyArguments((err as Error & { args: string[] }).args);
    // Its RequiredArgsError and NonExistentFlagsError: one line, not oclif's message plus the usage.
    if (/^Missing \d+ required args?/.test(err.message) && Array.isArray((err as { args?: unknown }).args))
      return this.missingArguments((err as Error & { args: { name: string; description?: string }[] }).args);
    if (/^Nonexistent flags?: /.test(err.message) && Array.isArray((err as { flags?: unknown }).flags))
      return this.unknownFlags((err as Error & { flags: string[] }).flags);
    // this.exit (oclif's ExitError, code EEXIT: its class name may not survive bundling): nothing to print.
    if (err.name === 'ExitError' || (err as { code?: unknown }).code === 'EEXIT') return super.catch(err);
    // oclif's own errors (parse errors, this.error) keep their exit codes, printed in berth's one
    // style (`Error: ...`), not oclif's (` ›   Error: ...`).
    if (err.oclif !== undefined) return this.oclifFailure(err, err.oclif.exit ?? 1);
    // Ctrl-C at a prompt: a new line so the shell prompt starts clean, nothing else, exit 130.
    if (isPromptInterrupt(err)) {
      process.stderr.write('\n');
      process.exitCode = EXIT.interrupted;
      return this.exit(EXIT.interrupted);
    }
    process.stderr.write(`${messageFor(err)}\n`);
    if (err instanceof BerthError && err.status === 401) process.stderr.write(`${this.unauthorizedHint()}\n`);
    process.exitCode = exitCodeFor(err);
    return this.exit(exitCodeFor(err));
  }

  /**
   * One of oclif's errors as one `Error:` line: its lines joined, without its "See more help with
   * --help" (named with the command instead) and its "The following error occurred:" preamble.
   */
  private oclifFailure(err: Error, exit: number): never {
    const command = `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trim();
    const lines = err.message.split('\n');
    const help = lines.some((l) => l.trim() === 'See more help with --help');
    // A parse error's lines are one sentence; this.error's message (e.g. jq's, with its caret) stays as written.
    const text = help
      ? lines
          .map((l) => l.trim())
          .filter((l) => l !== '' && l !== 'See more help with --help' && !/^The following errors? occurred:$/.test(l))
          .join(': ')
      : err.message;
    process.stderr.write(`Error: ${text.replace(/^Error: /, '')}${help ? `. See \`${command} --help\`.` : ''}\n`);
    process.exitCode = exit;
    return this.exit(exit);
  }

  /** Extra arguments: which ones, what the command takes, and the usual cause (an unquoted name with spaces). */
  private tooManyArguments(extra: string[]): never {
    const command = `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trim();
    const takes = Object.keys(this.ctor.args ?? {}).map((a) => a.toUpperCase());
    if (takes.length === 0) return this.usageFailure(unexpectedArgumentMessage(extra[0], command));
    process.stderr.write(
      `Error: too many arguments: ${extra.map((a) => JSON.stringify(a)).join(' ')}. ${command} takes ${
        takes.length === 0 ? 'no arguments' : takes.join(' ')
      }; quote a value that has spaces ("my name"). See \`${command} --help\`.\n`,
    );
    process.exitCode = EXIT.usage;
    return this.exit(EXIT.usage);
  }

  /** After a 401: which server refused which credential, and where that credential came from. */
  private unauthorizedHint(): string {
    const f = this.flags as { server?: string; token?: string; db?: string; database?: string } | undefined;
    const where = f?.server ? `server ${f.server}` : 'the local database';
    const login = f?.server ? `\`berth login ${f.server}\`` : '--token or BERTH_TOKEN';
    if (!f?.token) return `No token was given for ${where}: log in with ${login}.`;
    return `The ${where} refused the token from ${this.sources.token} (unknown, revoked or expired): log in again with ${login}, or change it there.`;
  }

  /** A usage or configuration error as one line on stderr (oclif's own would wrap it), exit 2. */
  protected usageFailure(message: string): never {
    process.stderr.write(`Error: ${message}\n`);
    process.exitCode = EXIT.usage;
    return this.exit(EXIT.usage);
  }

  /** A required argument is missing: which, what it is, and where the help is. */
  private missingArguments(missing: { name: string; description?: string }[]): never {
    const command = `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trim();
    const names = missing.map((a) => `${a.name.toUpperCase()}${a.description ? ` (${a.description})` : ''}`);
    process.stderr.write(
      `Error: missing argument${missing.length === 1 ? '' : 's'} ${names.join(', ')}. See \`${command} --help\`.\n`,
    );
    process.exitCode = EXIT.usage;
    return this.exit(EXIT.usage);
  }

  /** A flag the command does not have. */
  private unknownFlags(flags: string[]): never {
    const command = `${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''}`.trim();
    process.stderr.write(
      `Error: unknown flag${flags.length === 1 ? '' : 's'} ${flags.join(', ')} for ${command}. See \`${command} --help\`.\n`,
    );
    process.exitCode = EXIT.usage;
    return this.exit(EXIT.usage);
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    await this.clientInstance?.close().catch(() => undefined);
    return super.finally(err);
  }
}
