import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hostOf, type ConfigFile, type Profile } from './config.js';

export interface Connection {
  /** Server URL, or undefined for local mode. */
  server?: string;
  token?: string;
  org?: string;
  /** Default output from the profile (`json` makes --json the default). */
  output?: string;
  /** Where each value came from, for `berth config list` and diagnostics. */
  sources: Partial<Record<'server' | 'token' | 'org', string>>;
}

/** `TF_TOKEN_<host>` as Terraform names it: dots become `_`, hyphens `__`. */
export function terraformTokenVariable(host: string): string {
  return `TF_TOKEN_${host.replace(/-/g, '__').replace(/\./g, '_')}`;
}

/** Terraform's credentials.tfrc.json, as far as berth reads it (unchecked: any part may be missing). */
interface TerraformCredentials {
  credentials?: Record<string, { token?: unknown } | undefined>;
}

function terraformCredentials(home: string, host: string): string | undefined {
  const file = join(home, '.terraform.d', 'credentials.tfrc.json');
  if (!existsSync(file)) return undefined;
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as TerraformCredentials | null;
    const token = json?.credentials?.[host]?.token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?:\/|$)/i;

/**
 * A server as people type it: a URL, or `host[:port]` without a scheme, which means https, except
 * on loopback (`localhost`, `127.x.x.x`, `[::1]`), where `berth serve` listens over plain http.
 * A trailing `/api/v2` (the API's own path, which clients add themselves) is dropped, so that
 * `https://berth.example.com/api/v2/` does not become `.../api/v2/api/v2`. The same rule for
 * --server, the environment, the config file and `berth login`.
 */
export function serverUrl(value: string): string {
  const text = value.trim().replace(/\/api\/v2\/*$/i, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  return `${LOOPBACK_HOST.test(text) ? 'http' : 'https'}://${text}`;
}

/**
 * Resolves server, token and organization. Order for the server and token: the flags (which oclif
 * already fills from BERTH_SERVER / BERTH_TOKEN), then the ecosystem's variables (TFE_ADDRESS or
 * TFE_HOSTNAME, TFE_TOKEN, TF_TOKEN_<host>), the Terraform CLI credentials file, and last the
 * berth config (profile values, then tokens stored by `berth login`). The organization: --org /
 * BERTH_ORG, TFE_ORGANIZATION, then the profile. Ecosystem tokens apply only to a server.
 */
export function resolveConnection(
  flags: { server?: string; token?: string; org?: string },
  env: NodeJS.ProcessEnv,
  config: ConfigFile,
  profileName: string,
  home: string = env.HOME ?? homedir(),
): Connection {
  const profile: Profile = config.profiles[profileName] ?? {};
  const sources: Connection['sources'] = {};
  let server: string | undefined;
  if (flags.server) [server, sources.server] = [serverUrl(flags.server), 'flag or BERTH_SERVER'];
  else if (env.TFE_ADDRESS) [server, sources.server] = [serverUrl(env.TFE_ADDRESS), 'TFE_ADDRESS'];
  else if (env.TFE_HOSTNAME) [server, sources.server] = [serverUrl(env.TFE_HOSTNAME), 'TFE_HOSTNAME'];
  else if (profile.server) [server, sources.server] = [serverUrl(profile.server), `profile ${profileName}`];

  let token: string | undefined;
  if (flags.token) [token, sources.token] = [flags.token, 'flag or BERTH_TOKEN'];
  else if (server) {
    const host = hostOf(server);
    const tfVar = terraformTokenVariable(host);
    const fromFile = terraformCredentials(home, host);
    if (env.TFE_TOKEN) [token, sources.token] = [env.TFE_TOKEN, 'TFE_TOKEN'];
    else if (env[tfVar]) [token, sources.token] = [env[tfVar], tfVar];
    else if (fromFile) [token, sources.token] = [fromFile, '~/.terraform.d/credentials.tfrc.json'];
    else if (profile.token) [token, sources.token] = [profile.token, `profile ${profileName}`];
    else if (config.credentials[host]?.token)
      [token, sources.token] = [config.credentials[host].token, `berth login (${host})`];
  }

  let org: string | undefined;
  if (flags.org) [org, sources.org] = [flags.org, 'flag or BERTH_ORG'];
  else if (env.TFE_ORGANIZATION) [org, sources.org] = [env.TFE_ORGANIZATION, 'TFE_ORGANIZATION'];
  else if (profile.org) [org, sources.org] = [profile.org, `profile ${profileName}`];

  return { server, token, org, output: profile.output, sources };
}
