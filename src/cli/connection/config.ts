import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Settings a profile may hold. */
export const PROFILE_KEYS = ['server', 'org', 'output', 'token'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type Profile = Partial<Record<ProfileKey, string>>;

/**
 * berth's config file: named profiles of defaults, and tokens stored by `berth login` per
 * server host. Written with mode 0600 because it can hold tokens.
 */
export interface ConfigFile {
  profiles: Record<string, Profile>;
  /** Tokens by server host (`berth login`). */
  credentials: Record<string, { token: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BERTH_CONFIG) return env.BERTH_CONFIG;
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'berth', 'config.json');
}

export function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {}, credentials: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  const file = isObject(raw) ? raw : {};
  return {
    profiles: isObject(file.profiles) ? (file.profiles as ConfigFile['profiles']) : {},
    credentials: isObject(file.credentials) ? (file.credentials as ConfigFile['credentials']) : {},
  };
}

/** Writes atomically (temporary file, then rename) with mode 0600. */
export function writeConfig(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The host part of a server URL (`https://tfe.example.com/` → `tfe.example.com`, with port if any). */
export function hostOf(server: string): string {
  try {
    return new URL(server.includes('://') ? server : `https://${server}`).host;
  } catch {
    return server;
  }
}
