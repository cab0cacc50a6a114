import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Hono, type Context } from 'hono';
import { notFound } from '../domain/common/errors.js';
import { consoleLocationOf } from './console-app-paths.js';

/**
 * The web console's static files (built by `npm run build` into dist/console, docs/console.md):
 * `GET /` answers its index.html, `GET /console/NAME` its hashed assets. Only `berth serve`
 * mounts these routes; the folder is read lazily, once, at the first request, and only the names
 * it held then are ever answered (no path from the request reaches the file system). `/app/...`,
 * HCP Terraform's browser paths, redirect to the console's pages.
 */

/** The security headers of every console answer (the console's own code needs nothing more). */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** What a built asset's name looks like: a name, a hash, a known extension; nothing else is served. */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|svg|png|ico|woff2)$/;

interface ConsoleFiles {
  index: Buffer | null;
  assets: Map<string, { body: Buffer; type: string }>;
}

/** Reads the built console: index.html and the assets beside it (a missing folder: none). */
export function readConsoleFiles(dir: string): ConsoleFiles {
  const assets = new Map<string, { body: Buffer; type: string }>();
  let index: Buffer | null = null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { index, assets };
  }
  for (const name of names) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    if (name === 'index.html') index = readFileSync(path);
    else if (ASSET_NAME.test(name))
      assets.set(name, { body: readFileSync(path), type: TYPES[name.slice(name.lastIndexOf('.'))] });
  }
  return { index, assets };
}

function send(body: Buffer, type: string, cacheControl: string): Response {
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      ...CONSOLE_SECURITY_HEADERS,
      'Content-Type': type,
      'Content-Length': String(body.length),
      'Cache-Control': cacheControl,
    },
  });
}

/** The console's routes over the built folder `dir` (dist/console). */
export function consoleAssetRoutes(dir: string): Hono {
  let files: ConsoleFiles | null = null;
  const load = () => (files ??= readConsoleFiles(dir));
  const r = new Hono();
  r.get('/', () => {
    const { index } = load();
    if (!index) throw notFound('the web console is not built: run `npm run build`');
    return send(index, 'text/html; charset=utf-8', 'no-cache');
  });
  r.get('/console/:name', (c) => {
    const asset = load().assets.get(c.req.param('name'));
    if (!asset) throw notFound(`no console asset ${c.req.param('name')}`);
    // Hashed names: a new build has new names, so an answer never goes stale.
    return send(asset.body, asset.type, 'public, max-age=31536000, immutable');
  });
  // HCP Terraform's browser paths (the Terraform CLI prints /app/ORG/WS/runs/RUN): a redirect to
  // the console's page for them (console-app-paths.ts), built or not.
  const toConsole = (c: Context) =>
    new Response(null, {
      status: 302,
      headers: {
        Location: consoleLocationOf(c.req.path),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      },
    });
  r.get('/app', toConsole);
  r.get('/app/*', toConsole);
  return r;
}
