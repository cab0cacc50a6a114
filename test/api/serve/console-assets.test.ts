import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SECURITY_HEADERS } from '../../../src/api/console-assets.js';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { ROOT, tempDb } from '../../helpers/cli.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A raw GET: the path is sent as it is (fetch would resolve `..` segments before sending). */
function rawGet(
  base: string,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web console served by berth serve', () => {
  const tmp = tempDb();
  const dir = mkdtempSync(join(tmpdir(), 'berth-console-'));
  const secretDir = mkdtempSync(join(tmpdir(), 'berth-console-secret-'));
  let server: RunningServer;
  let empty: RunningServer;

  beforeAll(async () => {
    // A built console: index.html and two hashed assets (scripts/build-console.mjs makes the real one).
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>berth console</title><div id="app"></div>');
    writeFileSync(join(dir, 'app-ABC123.js'), 'console.log(1);');
    writeFileSync(join(dir, 'app-DEF456.css'), 'body{}');
    writeFileSync(join(dir, 'notes.txt'), 'not an asset');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(secretDir, 'secret.js'), 'TOP-SECRET-CONTENT');
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      rateLimit: 2,
      consoleDir: dir,
    });
    empty = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      rateLimit: 0,
      consoleDir: join(dir, 'missing'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await empty?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(secretDir, { recursive: true, force: true });
    tmp.cleanup();
  });

  const expectSecurityHeaders = (headers: Headers) => {
    expect(headers.get('content-security-policy')).toBe(CSP);
    expect(headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
  };

  it('answers GET / with index.html, the security headers and no-cache', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expectSecurityHeaders(res.headers);
    expect(await res.text()).toContain('<title>berth console</title>');
    expect(Object.keys(CONSOLE_SECURITY_HEADERS)).toContain('Content-Security-Policy');
  });

  it('answers HEAD / with the headers and no body', async () => {
    const res = await fetch(`${server.url}/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('answers the hashed assets with their types, cached immutable, with the security headers', async () => {
    const js = await fetch(`${server.url}/console/app-ABC123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(js.headers);
    expect(await js.text()).toBe('console.log(1);');
    const css = await fetch(`${server.url}/console/app-DEF456.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe('body{}');
  });

  it('answers 404 (a JSON:API error) for an unknown asset, a file that is no asset, and a folder', async () => {
    for (const path of ['/console/app-NOPE.js', '/console/notes.txt', '/console/sub', '/console/index.html']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      const doc = (await res.json()) as any;
      expect(doc.errors[0].status).toBe('404');
    }
  });

  it('refuses paths that climb out of the console folder', async () => {
    const rel = join('..', secretDir.split('/').pop()!, 'secret.js');
    for (const path of [
      `/console/${rel}`,
      `/console/..%2F${secretDir.split('/').pop()!}%2Fsecret.js`,
      '/console/%2e%2e/%2e%2e/etc/passwd',
      '/console/../../../../etc/passwd',
      '/console/..%5c..%5cetc%5cpasswd',
    ]) {
      const res = await rawGet(server.url, path);
      expect(res.status, path).not.toBe(200);
      expect(res.body).not.toContain('TOP-SECRET-CONTENT');
      expect(res.body).not.toContain('root:');
    }
  });

  it('does not count the console against the rate limit, while /api/v2 still is', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.url}/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      await res.arrayBuffer();
      const asset = await fetch(`${server.url}/console/app-ABC123.js`);
      expect(asset.status).toBe(200);
      await asset.arrayBuffer();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${server.url}/api/v2/ping`);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
  });

  it('answers 404 with a hint when the console is not built', async () => {
    const res = await fetch(`${empty.url}/`);
    expect(res.status).toBe(404);
    const doc = (await res.json()) as any;
    expect(doc.errors[0].detail).toContain('npm run build');
  });
});

describe('the console build (npm run build)', () => {
  const dist = join(ROOT, 'dist');

  it('writes dist/console: an index.html naming a hashed script and style sheet that are there', () => {
    const html = readFileSync(join(dist, 'console', 'index.html'), 'utf8');
    const script = /src="\/console\/(app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const style = /href="\/console\/(app-[A-Z0-9]+\.css)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    expect(readdirSync(join(dist, 'console')).sort()).toEqual([script, style, 'index.html'].sort());
    // No inline script or style (the CSP allows none), nothing from another origin.
    expect(html).not.toMatch(/<script>|<style|style=|https?:\/\//);
  });

  it('keeps the console out of the CLI bundle: no CLI command loads its code', () => {
    const cli = readFileSync(join(dist, 'cli.cjs'), 'utf8');
    for (const marker of ['berth.token', 'preact', 'sessionStorage', 'workspace-search'])
      expect(cli).not.toContain(marker);
  });
});
