import { Args } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { configPath, hostOf, readConfig, writeConfig } from '../cli/config.js';
import { serverUrl } from '../cli/connection.js';
import { canPrompt, usageError } from '../cli/prompts.js';
import { BerthClient } from '../client/client.js';
import { tokensApi } from '../client/teams.js';
import { HttpTransport } from '../client/transport.js';

async function readStdin(): Promise<string> {
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.trim();
}

export default class Login extends BerthCommand<typeof Login> {
  static override createsProfile = true;
  static override summary = 'Store a token for a server in the berth config file (mode 0600).';
  static override description = `Asks for the token without echoing it on a terminal; otherwise reads it from --token or stdin. The token is checked against the server before it is stored, and the server becomes the profile's default.`;
  static override examples = [
    '<%= config.bin %> login https://berth.example.com',
    'echo "$TOKEN" | <%= config.bin %> login http://127.0.0.1:8080',
  ];
  static override args = { server: Args.string({ description: 'server URL (default: the resolved --server)' }) };

  async run(): Promise<void> {
    const given = this.args.server ?? this.flags.server;
    if (!given) throw usageError('say which server to log in to: berth login URL');
    const server = serverUrl(given);
    const explicitToken = this.argv.some((a) => a === '--token' || a.startsWith('--token='))
      ? this.flags.token
      : undefined;
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
}
