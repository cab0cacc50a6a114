import { Args, Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { configPath, hostOf, readConfig, writeConfig } from '../cli/connection/config.js';
import { serverUrl } from '../cli/connection/connection.js';
import { canPrompt, usageError } from '../cli/common/prompts.js';
import { BerthClient } from '../client/client.js';
import { consoleApi } from '../client/console.js';
import { openInBrowser } from '../cli/common/open-url.js';
import { tokensApi } from '../client/teams.js';
import { HttpTransport } from '../client/transport.js';

async function readStdin(): Promise<string> {
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.trim();
}

export default class Login extends BerthCommand<typeof Login> {
  static override createsProfile = true;
  static override summary =
    'Store a token for a server in the berth config file (mode 0600), or sign in to its web console (--web).';
  static override description = `Asks for the token without echoing it on a terminal; otherwise reads it from --token or stdin. The token is checked against the server before it is stored, and the server becomes the profile's default.

With --web, stores nothing: asks the server (with the token stored for it by an earlier \`berth login\`, or --token) for a one-time sign-in link to its web console, prints it, and opens it in the browser when there is a display. The link works once, for 60 seconds, and gives the browser a token of the same user that expires after 8 hours. Only a user token can make one; the console lives in \`berth serve\`, so --web needs a server.`;
  static override examples = [
    '<%= config.bin %> login https://berth.example.com',
    'echo "$TOKEN" | <%= config.bin %> login http://127.0.0.1:8080',
    '<%= config.bin %> login --web',
    '<%= config.bin %> login --web https://berth.example.com --no-open --json',
  ];
  static override args = { server: Args.string({ description: 'server URL (default: the resolved --server)' }) };
  static override flags = {
    web: Flags.boolean({ description: "print (and open) a one-time sign-in link to the server's web console" }),
    open: Flags.boolean({
      description: 'with --web: open the link in the browser when there is a display',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const given = this.args.server ?? this.flags.server;
    if (!given)
      throw usageError(
        this.flags.web
          ? 'berth login --web needs a server (the web console lives in berth serve): berth login --web URL, or --server URL'
          : 'say which server to log in to: berth login URL',
      );
    const server = serverUrl(given);
    const explicitToken = this.argv.some((a) => a === '--token' || a.startsWith('--token='))
      ? this.flags.token
      : undefined;
    if (this.flags.web) return this.signInLink(server, explicitToken);
    let token = explicitToken ?? process.env.BERTH_TOKEN;
    if (!token) {
      if (canPrompt(this.flags)) {
        const { password } = await import('@inquirer/prompts');
        token = await password({ message: `Token for ${hostOf(server)}`, mask: false }, { output: process.stderr });
      } else {
        token = await readStdin();
      }
    }
    if (!token) throw usageError('no token given');
    const client = new BerthClient(new HttpTransport(server), token);
    const me = (await tokensApi(client).whoami()).data.attributes;
    const path = configPath();
    const config = readConfig(path);
    config.credentials[hostOf(server)] = { token };
    const profile = this.flags.profile;
    config.profiles[profile] = { ...(config.profiles[profile] ?? {}), server };
    writeConfig(path, config);
    const who = me.username ?? me['team-name'] ?? me.organization ?? me.kind;
    this.print(
      { server, host: hostOf(server), profile, identity: me },
      () => `Logged in to ${server} as ${who}; stored in ${path} (profile ${profile}).`,
    );
  }

  /** `--web`: a one-time sign-in link to the console of `server`, made with the token stored for it. */
  private async signInLink(server: string, explicitToken: string | undefined): Promise<void> {
    // The resolved token belongs to the resolved server; a server named as the argument uses its own.
    const token =
      explicitToken ??
      (server === this.flags.server ? this.flags.token : readConfig(configPath()).credentials[hostOf(server)]?.token);
    if (!token) throw usageError(`no token for ${hostOf(server)}: run berth login ${server} first, or pass --token`);
    const link = await consoleApi(new BerthClient(new HttpTransport(server), token)).createSignInLink();
    const url = `${server.replace(/\/+$/, '')}/#sign-in=${link.attributes.code}`;
    const expiresAt = link.attributes['expires-at'];
    const opened = this.flags.open && (await openInBrowser(url));
    this.print(
      { url, 'expires-at': expiresAt },
      () =>
        `${opened ? 'Opening' : 'Open'} this link in a browser to sign in to the console (valid for 60 seconds, once):\n  ${url}`,
    );
  }
}
