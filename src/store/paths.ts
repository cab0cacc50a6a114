import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the local database lives: the `--db` flag, else `$BERTH_DB`, else `berth.db` in the
 * user's data directory (`$XDG_DATA_HOME/berth/` or `~/.local/share/berth/`).
 */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0 ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(dataHome, 'berth', 'berth.db');
}

export function resolveDatabasePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  // An explicit flag always wins over the environment.
  if (flag && flag.length > 0) return flag;
  if (env.BERTH_DB && env.BERTH_DB.length > 0) return env.BERTH_DB;
  return defaultDatabasePath(env);
}
