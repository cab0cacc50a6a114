import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';
import { TERRAFORM, describeTerraform, throwawayCertificate } from '../../helpers/terraform.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * `terraform login localhost:PORT` against a real `berth serve` over TLS (a throwaway certificate
 * for localhost, trusted through SSL_CERT_FILE), the test acting as the person's browser: it reads
 * the authorization URL the CLI prints, follows berth's redirect to the console's approval page,
 * signs in through the console's sign-in API, approves, and sends the browser to the CLI's
 * callback. The CLI must end with a token in its credentials file that berth answers as the user.
 */
describeTerraform('terraform login against berth serve', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let cert = '';
  let host = '';
  let cli: ChildProcess | null = null;

  /** One HTTPS request to serve, trusting the throwaway certificate. */
  const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (options.token) headers.Authorization = `Bearer ${options.token}`;
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      if (body) headers['Content-Type'] = 'application/vnd.api+json';
      const req = httpsRequest(
        new URL(path, server.url),
        { method, headers, ca: readFileSync(cert), agent: false },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const ok = async (answer: Promise<Answer>, status = 201) => {
    const a = await answer;
    expect(a.status, JSON.stringify(a.body)).toBe(status);
    return a.body.data;
  };

  beforeAll(async () => {
    const pair = throwawayCertificate(tmp.dir);
    cert = pair.cert;
    server = await startServe(tmp.db, ['--tls-cert', pair.cert, '--tls-key', pair.key]);
    host = `localhost:${new URL(server.url).port}`;
  });
  afterAll(async () => {
    if (cli && cli.exitCode === null) cli.kill('SIGKILL');
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });

  it('ends with a working token of the approving user in credentials.tfrc.json', async () => {
    // The person: a user of berth, signed in to the console as the console does it (a one-time
    // sign-in link traded for a token of its own).
    const admin = server.token!;
    const alice = await ok(
      call('POST', '/api/v2/admin/users', {
        token: admin,
        body: { data: { type: 'users', attributes: { username: 'alice', email: 'alice@example.com' } } },
      }),
    );
    const aliceToken = (await ok(call('POST', `/api/v2/users/${alice.id}/authentication-tokens`, { token: admin })))
      .attributes.token as string;
    const link = await ok(call('POST', '/api/v2/console/sign-in-links', { token: aliceToken }));
    const consoleToken = (
      await ok(
        call('POST', '/api/v2/console/sign-ins', {
          body: { data: { type: 'console-sign-ins', attributes: { code: link.attributes.code } } },
        }),
      )
    ).attributes.token as string;

    // The CLI, in a home of its own: no browser to open, so it prints the URL.
    const home = join(tmp.dir, 'home');
    // The CLI configuration folder: terraform login writes credentials.tfrc.json into it and does
    // not make it (a checkpoint run would have, but checkpoint is off here).
    mkdirSync(join(home, '.terraform.d'), { recursive: true });
    const config = join(tmp.dir, 'terraformrc');
    writeFileSync(config, '');
    cli = spawn(TERRAFORM!.path, ['login', host], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TF_CLI_CONFIG_FILE: config,
        SSL_CERT_FILE: cert,
        CHECKPOINT_DISABLE: '1',
        NO_COLOR: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const lookers: (() => void)[] = [];
    cli.stdout!.on('data', (d) => {
      stdout += d;
      for (const look of lookers) look();
    });
    cli.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => cli!.on('exit', (code) => resolve(code)));
    /** Waits for the CLI to print `pattern` (or fails when it exits first). */
    const printed = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const look = () => {
          const match = pattern.exec(stdout);
          if (match) resolve(match);
        };
        lookers.push(look);
        look();
        void exited.then((code) => reject(new Error(`terraform exited with ${code}:\n${stdout}\n${stderr}`)));
      });

    await printed(/Do you want to proceed\?/);
    cli.stdin!.write('yes\n');
    const [authzUrl] = await printed(/https:\/\/localhost:\d+\/terraform-login\/authorize\?\S+/);

    // The browser opens it: berth sends it on to the console's approval page.
    const url = new URL(authzUrl);
    expect(url.searchParams.get('client_id')).toBe('terraform-cli');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const authz = await call('GET', `${url.pathname}${url.search}`);
    expect(authz.status).toBe(302);
    const location = String(authz.headers.location);
    expect(location).toMatch(/^\/#\/terraform-login\?/);
    const request = new URLSearchParams(location.slice(location.indexOf('?') + 1));
    expect(request.get('redirect_uri')).toMatch(/^http:\/\/localhost:100(0\d|10)\/login$/);

    // The console's approval page, signed in, approves: the answer is the CLI's callback.
    const attributes: Record<string, string> = {};
    for (const [name, value] of request) attributes[name.replace(/_/g, '-')] = value;
    const approval = await ok(
      call('POST', '/api/v2/terraform-login/approvals', {
        token: consoleToken,
        body: { data: { type: 'terraform-login-approvals', attributes } },
      }),
    );
    const callback = new URL(approval.attributes['redirect-to']);
    expect(callback.searchParams.get('state')).toBe(request.get('state'));
    // The CLI listens on 127.0.0.1 (its redirect names localhost).
    callback.hostname = '127.0.0.1';
    const landed = await new Promise<number>((resolve, reject) =>
      httpGet(callback, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject),
    );
    expect(landed).toBe(200);

    expect(await exited, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toContain('Success!');

    // What it saved works, as alice, and is listed among her tokens as "terraform login".
    const saved = JSON.parse(readFileSync(join(home, '.terraform.d', 'credentials.tfrc.json'), 'utf8'));
    const token = saved.credentials[host].token as string;
    expect(token).toMatch(/^berth\./);
    const me = await ok(call('GET', '/api/v2/account/details', { token }), 200);
    expect(me).toMatchObject({ id: alice.id, attributes: { username: 'alice' } });
    const tokens = await ok(call('GET', `/api/v2/users/${alice.id}/authentication-tokens`, { token: admin }), 200);
    expect(tokens.map((t: any) => t.attributes.description)).toContain('terraform login');
    // The access log is written in batches: its line comes when the batch does.
    await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/POST \/api\/v2\/terraform-login\/token 200 /);
  });
});
