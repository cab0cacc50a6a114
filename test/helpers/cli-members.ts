import { expect } from 'vitest';
import { runCli } from './cli.js';

/**
 * Local mode: the operator (the admin user) invites EMAIL to ORG, to `teams`; the user, with
 * their own token, accepts. Only members of an organization can be put in its teams.
 */
export async function cliJoin(
  env: Record<string, string>,
  org: string,
  email: string,
  userToken: string,
  teams: string[] = [],
): Promise<void> {
  const invited = await runCli(['org', 'invite', email, '--org', org, ...teams.flatMap((t) => ['--team', t])], env);
  expect(invited.code, invited.stderr).toBe(0);
  const joined = await runCli(['org', 'join', org], { ...env, BERTH_TOKEN: userToken });
  expect(joined.code, joined.stderr).toBe(0);
}
