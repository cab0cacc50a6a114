import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLocationOf } from '../../../src/api/console-app-paths.js';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/** A raw GET, not followed: the path is sent as it is. */
function rawGet(base: string, path: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * HCP Terraform's browser paths (`/app/...`: the Terraform CLI prints
 * "To view this run in a browser, visit: https://HOST/app/ORG/WS/runs/RUN") redirect to the
 * console's pages; a built console is not needed for that.
 */
describe('serve redirects /app/... to the web console', () => {
  const tmp = tempDb();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      rateLimit: 0,
      consoleDir: '/nonexistent/berth-console',
    });
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  const cases: [string, string][] = [
    ['/app', '/#/'],
    ['/app/', '/#/'],
    ['/app/acme', '/#/orgs/acme/workspaces'],
    ['/app/acme/workspaces', '/#/orgs/acme/workspaces'],
    ['/app/acme/workspaces/web', '/#/orgs/acme/workspaces/web'],
    ['/app/acme/workspaces/web/runs', '/#/orgs/acme/workspaces/web'],
    ['/app/acme/web/runs', '/#/orgs/acme/workspaces/web'],
    ['/app/acme/web/runs/run-AbC123', '/#/orgs/acme/workspaces/web?run=run-AbC123'],
    ['/app/acme/workspaces/web/runs/run-AbC123', '/#/orgs/acme/workspaces/web?run=run-AbC123'],
    ['/app/acme/web/runs/run-AbC123?x=1', '/#/orgs/acme/workspaces/web?run=run-AbC123'],
    ['/app/my%20org/workspaces/a%2Fb', '/#/orgs/my%20org/workspaces/a%2Fb'],
    ['/app/acme/settings/general', '/#/'],
    ['/app/acme/projects', '/#/'],
    ['/app/acme/workspaces/web/states/sv-1', '/#/'],
    ['/app/acme/workspaces/web/runs/run-1/extra', '/#/'],
    ['/app/%E0%A4%A', '/#/'],
    ['/app/acme/web/runs/%3Cscript%3E', '/#/orgs/acme/workspaces/web?run=%3Cscript%3E'],
  ];

  it('answers 302 to the console page of the organization, workspace or run, else the home page', async () => {
    for (const [path, location] of cases) {
      const res = await rawGet(server.url, path);
      expect(res.status, path).toBe(302);
      expect(res.headers.location, path).toBe(location);
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
  });

  it('maps the same paths without a server (the function serve uses)', () => {
    for (const [path, location] of cases) expect(consoleLocationOf(path.split('?')[0]), path).toBe(location);
  });

  it('leaves the API alone: /api/v2 and other paths are not redirected', async () => {
    expect((await rawGet(server.url, '/api/v2/ping')).status).toBe(204);
    expect((await rawGet(server.url, '/application')).status).toBe(404);
  });
});
