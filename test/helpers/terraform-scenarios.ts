import { expect } from 'vitest';
import { AUTO, type serveForTerraform } from './terraform.js';

/**
 * Shared steps of the day-one scenarios (test/e2e/terraform/cli-*.test.ts): the run a terraform
 * command started, read back through berth's API, and the workspace's lock.
 */

type Ctx = ReturnType<typeof serveForTerraform>;

/** The id of the run a terraform command printed the link of (the first one). */
export function runIdOf(output: string): string {
  const id = /runs\/(run-[A-Za-z0-9]{16})/.exec(output)?.[1];
  expect(id, `no run link in:\n${output}`).toBeTruthy();
  return id!;
}

export function scenarioSteps(ctx: Ctx) {
  const tf = () => ctx.sandbox();
  async function get(path: string): Promise<any> {
    const res = await ctx.api('GET', path);
    expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  }
  return {
    tf,
    /** The run's JSON:API document (data). */
    run: (id: string) => get(`/runs/${id}`),
    /** ORG/NAME's JSON:API document (data). */
    workspace: (org: string, name: string) => get(`/organizations/${org}/workspaces/${name}`),
    /** Whether ORG/NAME is locked, by anyone. */
    locked: async (org: string, name: string) =>
      (await get(`/organizations/${org}/workspaces/${name}`)).attributes.locked as boolean,
    /** A fresh organization and a working folder `name` with `files`, initialized by terraform. */
    initialized: async (org: string, files: Record<string, string>, name = org) => {
      const berth = await ctx.org(org);
      const dir = tf().workdir(name, files);
      const init = await tf().run(dir, ['init', ...AUTO]);
      expect(init.code, init.output).toBe(0);
      return { berth, dir };
    },
    /** terraform apply -auto-approve, expected to succeed. */
    applied: async (dir: string, extra: string[] = [], env?: Record<string, string>) => {
      const res = await tf().run(dir, ['apply', '-auto-approve', ...AUTO, ...extra], { env });
      expect(res.code, res.output).toBe(0);
      return res;
    },
  };
}
