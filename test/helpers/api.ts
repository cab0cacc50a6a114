import { createApp } from '../../src/api/app.js';
import { LOCAL_SITE_ADMIN, type Actor } from '../../src/domain/permissions/actor.js';
import type { Store } from '../../src/store/open.js';
import { openTestStore } from './store.js';
import { attachSecretKey } from '../../src/store/secrets/attach.js';
import type { SecretKeySource } from '../../src/store/secrets/keyring.js';
import { TEST_KEY_SOURCE } from './secret-key.js';
import { createSiteAdminToken, createUserToken } from '../../src/services/identity/tokens.js';
import { createUser } from '../../src/services/identity/users.js';
import { systemClock, type Clock } from '../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS, type InstanceSettings, type ServiceContext } from '../../src/services/context.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestApiOptions {
  settings?: InstanceSettings;
  /**
   * The app's clock (signed URLs' expiries, token expiries, timestamps). Give a `TestClock` where a
   * test compares answers that embed the time: with the system's, two requests either side of a
   * second boundary differ.
   */
  clock?: Clock;
  /** Where the key of sensitive values comes from (default: the tests' key, in memory). */
  secretKey?: SecretKeySource;
}

/**
 * A fresh in-memory berth with its API app, and helpers to call it with a token. Each test file
 * gets its own database, so tests run in parallel.
 */
export class TestApi {
  private constructor(
    readonly store: Store,
    readonly app: ReturnType<typeof createApp>,
    public adminToken: string,
    /** The app's clock: the system's unless the test gave one (e.g. a `TestClock`). */
    readonly clock: Clock,
  ) {}

  static async create(options: TestApiOptions = {}): Promise<TestApi> {
    return TestApi.on(await openTestStore(), options);
  }

  /** The API app on a store the caller opened (e.g. a second store on the same database). */
  static async on(store: Store, options: TestApiOptions = {}): Promise<TestApi> {
    const clock = options.clock ?? systemClock;
    // The key of sensitive values, as serve and local mode set it up (store/secrets/attach.ts).
    await attachSecretKey(store, options.secretKey ?? TEST_KEY_SOURCE);
    const app = createApp({
      db: store.db,
      settings: options.settings,
      clock,
      onUnexpectedError: (e) => console.error(e),
    });
    const token = await createSiteAdminToken({ ...TestApi.ctx(store, LOCAL_SITE_ADMIN), clock }, 'tests');
    return new TestApi(store, app, token.token!, clock);
  }

  static ctx(store: Store, actor: Actor): ServiceContext {
    return { db: store.db, actor, clock: systemClock, settings: DEFAULT_SETTINGS };
  }

  /** Creates a user and returns a token acting as them. */
  async userToken(username: string): Promise<{ userId: string; token: string }> {
    const ctx = { ...TestApi.ctx(this.store, LOCAL_SITE_ADMIN), clock: this.clock };
    const user = await createUser(ctx, { username, email: `${username}@example.com`, isSiteAdmin: false });
    const token = await createUserToken(ctx, user.id, null);
    return { userId: user.id, token: token.token! };
  }

  async request(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? this.adminToken : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !('Content-Type' in headers)) headers['Content-Type'] = 'application/vnd.api+json';
    const res = await this.app.fetch(new Request(`http://berth.test${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: any = null;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get = (path: string, options: { token?: string | null } = {}) => this.request('GET', path, options);
  post = (path: string, body?: unknown, options: { token?: string | null } = {}) =>
    this.request('POST', path, { ...options, body });
  patch = (path: string, body?: unknown, options: { token?: string | null } = {}) =>
    this.request('PATCH', path, { ...options, body });
  delete = (path: string, options: { token?: string | null; body?: unknown } = {}) =>
    this.request('DELETE', path, options);

  async createOrg(name: string, token?: string): Promise<ApiResponse> {
    return this.post(
      '/api/v2/organizations',
      { data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } } },
      { token },
    );
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
