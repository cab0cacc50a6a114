import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * The Terraform CLI's `cloud` block in local execution mode, replayed request by request against
 * a real `berth serve`: `terraform init` (workspace selected by tags, created on first use),
 * `plan`, `apply` (the state upload flow of Terraform 1.6 and later, then the inline create of
 * older versions), `output`. The sequence is taken from the CLI's cloud backend
 * (internal/cloud/backend.go, state.go) and go-tfe; docs/api.md lists it. Each step is a test of
 * its own so that one missing endpoint does not hide the rest.
 */

const TERRAFORM_VERSION = '1.10.5';
const ORG = 'acme';
const TAG = 'app';
const NAME = 'app-prod';
const enc = encodeURIComponent;

/** A state file as the CLI writes one: `serial` and `lineage` of its own, one resource, two outputs. */
function stateFile(serial: number, lineage: string): Buffer {
  const state = {
    version: 4,
    terraform_version: TERRAFORM_VERSION,
    serial,
    lineage,
    outputs: {
      greeting: { value: 'hello', type: 'string' },
      secret: { value: 'pssst', type: 'string', sensitive: true },
    },
    resources: [
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'marker',
        provider: 'provider["terraform.io/builtin/terraform"]',
        instances: [{ schema_version: 0, attributes: { id: `id-${serial}` }, sensitive_attributes: [] }],
      },
    ],
    check_results: null,
  };
  return Buffer.from(`${JSON.stringify(state, null, 2)}\n`);
}

/** `terraform show -json`'s outputs, as the CLI sends them in `json-state-outputs`. */
const JSON_OUTPUTS = Buffer.from(
  JSON.stringify({
    greeting: { sensitive: false, value: 'hello', type: 'string' },
    secret: { sensitive: true, value: 'pssst', type: 'string' },
  }),
);
const JSON_STATE = (serial: number) =>
  Buffer.from(JSON.stringify({ format_version: '1.0', terraform_version: TERRAFORM_VERSION, serial }));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('the Terraform CLI cloud block (local execution mode) against berth serve', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  let workspaceId = '';
  let currentSerial = 0;
  const lineage = '3b241101-e2bb-4255-8caf-4136c566a962';

  /** A request as go-tfe sends it: bearer token, JSON:API media type, Terraform's own headers. */
  async function tfe(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${server.token}`,
      Accept: 'application/vnd.api+json',
      'User-Agent': 'go-tfe',
      'Terraform-Version': TERRAFORM_VERSION,
      'X-Terraform-Integration': 'cloud',
    };
    if (method !== 'GET') headers['Content-Type'] = 'application/vnd.api+json';
    const res = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  /** go-tfe's foreign PUT of a state file to an upload URL. */
  async function putFile(url: string, bytes: Buffer) {
    const res = await fetch(url, {
      method: 'PUT',
      headers: {
        Authorization: `Bearer ${server.token}`,
        Accept: 'application/json, */*',
        'Content-Type': 'application/octet-stream',
      },
      body: bytes,
    });
    return res.status;
  }

  /** go-tfe's Download: a GET of the URL the state version gives, with the token. */
  async function download(url: string): Promise<Buffer> {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'application/json' } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  /** What configuring the backend sends before every command: discovery, ping, entitlements. */
  async function configure() {
    const disco = await fetch(`${server.url}/.well-known/terraform.json`);
    expect(disco.status).toBe(200);
    expect(disco.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await disco.json()) as Record<string, string>)['tfe.v2']).toBe('/api/v2/');
    const ping = await fetch(`${server.url}/api/v2/ping`, { headers: { Authorization: `Bearer ${server.token}` } });
    expect(ping.status).toBe(204);
    // The CLI refuses an API version below 2.5.
    const [major, minor] = ping.headers.get('tfp-api-version')!.split('.').map(Number);
    expect(major > 2 || (major === 2 && minor >= 5)).toBe(true);
  }

  /** `Workspaces()`: the workspaces carrying the configured tags, every page. */
  const listByTags = () => tfe('GET', `/organizations/${ORG}/workspaces?search%5Btags%5D=${TAG}`);

  /** `StateMgr(name)`: the workspace read by name, then the tag check (its tag bindings). */
  async function stateManager() {
    const ws = await tfe('GET', `/organizations/${ORG}/workspaces/${NAME}`);
    expect(ws.status).toBe(200);
    const bindings = await tfe('GET', `/workspaces/${workspaceId}/tag-bindings`);
    expect(bindings.status).toBe(200);
    expect(bindings.body.data.map((b: any) => b.attributes.key)).toContain(TAG);
    return ws.body.data;
  }

  const lock = () => tfe('POST', `/workspaces/${workspaceId}/actions/lock`, lockBody);
  const lockBody = { data: { type: '', attributes: { reason: 'Locked by Terraform' } } };
  const unlock = () => tfe('POST', `/workspaces/${workspaceId}/actions/unlock`);

  /** `RefreshState`: the current state version and, when there is one, its state. */
  async function refreshState(): Promise<Buffer | null> {
    const sv = await tfe('GET', `/workspaces/${workspaceId}/current-state-version`);
    if (sv.status === 404) return null;
    expect(sv.status).toBe(200);
    return download(sv.body.data.attributes['hosted-state-download-url']);
  }

  beforeAll(async () => {
    server = await startServe(tmp.db);
    const org = await tfe('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: ORG, email: 'ops@acme.test' } },
    });
    expect(org.status).toBe(201);
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
  });

  describe('terraform init', () => {
    it('discovers the API and pings it', configure);

    it('reads the organization entitlements (GET /organizations/:org/entitlement-set)', async () => {
      const res = await tfe('GET', `/organizations/${ORG}/entitlement-set`);
      expect(res.status).toBe(200);
      expect(res.body.data.type).toBe('entitlement-sets');
      // The CLI reads `operations` (false forces local execution).
      expect(typeof res.body.data.attributes.operations).toBe('boolean');
    });

    it('lists the workspaces with the configured tags (none yet), and asks for a name', async () => {
      const res = await listByTags();
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.pagination).toMatchObject({ 'current-page': 1, 'total-pages': 1 });
    });

    it('creates the workspace with the tags, sets its Terraform version, and binds the tags as keys', async () => {
      expect((await tfe('GET', `/organizations/${ORG}/workspaces/${NAME}`)).status).toBe(404);
      const created = await tfe('POST', `/organizations/${ORG}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: NAME },
          relationships: { tags: { data: [{ type: 'tags', attributes: { name: TAG } }] } },
        },
      });
      expect(created.status).toBe(201);
      workspaceId = created.body.data.id;
      expect(created.body.data.attributes['tag-names']).toEqual([TAG]);
      const version = await tfe('PATCH', `/workspaces/${workspaceId}`, {
        data: { type: 'workspaces', attributes: { 'terraform-version': TERRAFORM_VERSION } },
      });
      expect(version.status).toBe(200);
      expect(version.body.data.attributes['terraform-version']).toBe(TERRAFORM_VERSION);
      // The tag check: the flat tag is there, but no binding with its key yet, so the CLI adds one.
      const bindings = await tfe('GET', `/workspaces/${workspaceId}/tag-bindings`);
      expect(bindings.status).toBe(200);
      expect(bindings.body.data).toEqual([]);
      const added = await tfe('PATCH', `/workspaces/${workspaceId}/tag-bindings`, {
        data: [{ type: 'tag-bindings', attributes: { key: TAG, value: '' } }],
      });
      expect(added.status).toBe(200);
    });
  });

  describe('terraform plan (local execution)', () => {
    it('finds its workspace among those with the tags, in local execution mode', async () => {
      // Not the CLI: the operator switches the workspace to local execution once (UI or API).
      const local = await tfe('PATCH', `/workspaces/${workspaceId}`, {
        data: { type: 'workspaces', attributes: { 'execution-mode': 'local' } },
      });
      expect(local.status).toBe(200);
      await configure();
      const listed = await listByTags();
      expect(listed.body.data.map((w: any) => w.attributes.name)).toEqual([NAME]);
      // Operation: the workspace read once to choose local or remote execution.
      const ws = await tfe('GET', `/organizations/${ORG}/workspaces/${NAME}`);
      expect(ws.body.data.attributes['execution-mode']).toBe('local');
    });

    it('locks, finds no state, unlocks', async () => {
      await stateManager();
      const locked = await lock();
      expect(locked.status).toBe(200);
      expect(locked.body.data.attributes.locked).toBe(true);
      expect(await refreshState()).toBeNull();
      const unlocked = await unlock();
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.data.attributes.locked).toBe(false);
    });
  });

  describe('terraform apply (Terraform 1.6 and later: the upload flow)', () => {
    it('locks, refreshes, creates a pending state version, PUTs the state and its JSON form, unlocks', async () => {
      await configure();
      await listByTags();
      await tfe('GET', `/organizations/${ORG}/workspaces/${NAME}`);
      await stateManager();
      expect((await lock()).status).toBe(200);
      expect(await refreshState()).toBeNull();
      // PersistState: no state read yet, so it refreshes once more, then writes serial 1.
      expect(await refreshState()).toBeNull();
      const state = stateFile(1, lineage);
      const created = await tfe('POST', `/workspaces/${workspaceId}/state-versions`, {
        data: {
          type: 'state-versions',
          attributes: {
            lineage,
            md5: md5(state),
            serial: 1,
            force: false,
            'json-state-outputs': JSON_OUTPUTS.toString('base64'),
          },
        },
      });
      expect(created.status).toBe(201);
      const sv = created.body.data;
      expect(sv.attributes.status).toBe('pending');
      expect(await putFile(sv.attributes['hosted-state-upload-url'], state)).toBe(200);
      expect(await putFile(sv.attributes['hosted-json-state-upload-url'], JSON_STATE(1))).toBe(200);
      const read = await tfe('GET', `/state-versions/${sv.id}`);
      expect(read.body.data.attributes).toMatchObject({ status: 'finalized', serial: 1, 'resource-count': 1 });
      const unlocked = await unlock();
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.data.relationships['current-state-version'].data.id).toBe(sv.id);
      expect(unlocked.body.data.attributes['resource-count']).toBe(1);
      currentSerial = 1;
      expect(await refreshState()).toEqual(state);
    });
  });

  describe('terraform apply (older CLIs: the state inline in the create)', () => {
    it('locks, downloads the current state, creates the next serial with state and JSON inline, unlocks', async () => {
      await configure();
      await stateManager();
      expect((await lock()).status).toBe(200);
      const previous = await refreshState();
      expect(JSON.parse(previous!.toString()).serial).toBe(currentSerial);
      const state = stateFile(currentSerial + 1, lineage);
      const created = await tfe('POST', `/workspaces/${workspaceId}/state-versions`, {
        data: {
          type: 'state-versions',
          attributes: {
            lineage,
            serial: currentSerial + 1,
            md5: md5(state),
            state: state.toString('base64'),
            force: false,
            'json-state': JSON_STATE(currentSerial + 1).toString('base64'),
            'json-state-outputs': JSON_OUTPUTS.toString('base64'),
          },
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.attributes).toMatchObject({ status: 'finalized', serial: currentSerial + 1 });
      expect((await unlock()).status).toBe(200);
      currentSerial++;
      const current = await tfe('GET', `/workspaces/${workspaceId}/current-state-version`);
      expect(current.body.data.id).toBe(created.body.data.id);
      expect(await download(current.body.data.attributes['hosted-json-state-download-url'])).toEqual(
        JSON_STATE(currentSerial),
      );
    });

    it('Terraform 1.1-1.5 without a JSON form: empty json-state and json-state-outputs are taken as absent', async () => {
      // The remote backend of those versions base64-encodes whatever JSON it has: when it has none
      // (init migrating a local state, state push without provider schemas), an empty string.
      await configure();
      await stateManager();
      expect((await lock()).status).toBe(200);
      const state = stateFile(currentSerial + 1, lineage);
      const created = await tfe('POST', `/workspaces/${workspaceId}/state-versions`, {
        data: {
          type: 'state-versions',
          attributes: {
            lineage,
            serial: currentSerial + 1,
            md5: md5(state),
            state: state.toString('base64'),
            force: false,
            'json-state': '',
            'json-state-outputs': '',
          },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.attributes).toMatchObject({
        status: 'finalized',
        serial: currentSerial + 1,
        'hosted-json-state-download-url': null,
      });
      // Not left locked: the CLI unlocks after a successful write.
      expect((await unlock()).status).toBe(200);
      currentSerial++;
      const current = await tfe('GET', `/workspaces/${workspaceId}/current-state-version`);
      expect(current.body.data.id).toBe(created.body.data.id);
      expect(await download(current.body.data.attributes['hosted-state-download-url'])).toEqual(state);
      // The outputs come from the state itself.
      const outputs = await tfe('GET', `/workspaces/${workspaceId}/current-state-version-outputs`);
      expect(outputs.body.data.map((o: any) => [o.attributes.name, o.attributes.value])).toEqual([
        ['greeting', 'hello'],
        ['secret', null],
      ]);
    });

    it('a stale serial is refused while the lock is held, and the lock then released', async () => {
      expect((await lock()).status).toBe(200);
      const state = stateFile(1, lineage);
      const stale = await tfe('POST', `/workspaces/${workspaceId}/state-versions`, {
        data: {
          type: 'state-versions',
          attributes: { lineage, serial: 1, md5: md5(state), state: state.toString('base64'), force: false },
        },
      });
      expect(stale.status).toBe(422);
      expect((await unlock()).status).toBe(200);
    });
  });

  describe('terraform output', () => {
    it('reads the current outputs (with detailed types), then each sensitive one by id', async () => {
      await configure();
      await stateManager();
      const outputs = await tfe('GET', `/workspaces/${workspaceId}/current-state-version-outputs`);
      expect(outputs.status).toBe(200);
      const byName = Object.fromEntries(outputs.body.data.map((o: any) => [o.attributes.name, o]));
      expect(byName.greeting.attributes).toMatchObject({ value: 'hello', 'detailed-type': 'string', sensitive: false });
      expect(byName.secret.attributes).toMatchObject({ value: null, 'detailed-type': 'string', sensitive: true });
      const secret = await tfe('GET', `/state-version-outputs/${enc(byName.secret.id)}`);
      expect(secret.status).toBe(200);
      expect(secret.body.data.attributes.value).toBe('pssst');
    });
  });

  it('serves a state back byte for byte through serve, also one that is not UTF-8, twice', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"version":4,"serial":9,"lineage":"x","outputs":{"o":{"value":"'),
      Buffer.from([0xff, 0xfe, 0xe9]),
      Buffer.from('","type":"string"}},"resources":[]}'),
    ]);
    expect((await lock()).status).toBe(200);
    const created = await tfe('POST', `/workspaces/${workspaceId}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: { serial: 9, md5: md5(bytes), state: bytes.toString('base64'), force: true },
      },
    });
    expect(created.status).toBe(201);
    expect((await unlock()).status).toBe(200);
    const url = created.body.data.attributes['hosted-state-download-url'];
    // The second download is where a cached answer would be served.
    expect((await download(url)).equals(bytes)).toBe(true);
    expect((await download(url)).equals(bytes)).toBe(true);
  });

  it('the access log shows the state writes, and never the signature of an upload URL', () => {
    const lines = server
      .stderr()
      .split('\n')
      .filter((l) => / \/(api\/v2|\.well-known)\//.test(l));
    expect(lines.some((l) => l.includes(`POST /api/v2/workspaces/${workspaceId}/state-versions 201`))).toBe(true);
    expect(lines.some((l) => /PUT \/api\/v2\/state-versions\/sv-\w+\/content 200/.test(l))).toBe(true);
    expect(lines.some((l) => /PUT \/api\/v2\/state-versions\/sv-\w+\/json-content 200/.test(l))).toBe(true);
    // The access log never holds the upload URLs' signature.
    expect(server.stderr()).not.toMatch(/signature=/);
  });
});
