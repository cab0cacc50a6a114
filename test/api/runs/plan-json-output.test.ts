import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BerthError } from '../../../src/domain/common/errors.js';
import { MAX_PLAN_JSON_BYTES } from '../../../src/domain/common/limits.js';
import { storePlanJson } from '../../../src/services/runs/plan-json.js';
import { grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { claim, executingFixture, finish, newConfiguration, now, P, queueRun } from '../../helpers/run-execution.js';

/**
 * A plan's JSON (migration 038): `GET /plans/:id/json-output` answers `terraform show -json` of the
 * saved plan to the workspace's admins, `GET /plans/:id/json-output-redacted` the document the
 * Terraform CLI renders (`terraform show` of a saved cloud plan) to whoever may read the run, with
 * the values the plan marks sensitive hidden. 204 while the plan runs; 404 to strangers.
 */

const SECRET = 'hunter2-do-not-show';

/** A JSON plan as terraform prints it: one update with a sensitive attribute, a sensitive output. */
const PLAN = {
  format_version: '1.2',
  terraform_version: '1.11.4',
  variables: { password: { value: SECRET } },
  planned_values: { root_module: { resources: [{ address: 'terraform_data.a', values: { input: SECRET } }] } },
  resource_changes: [
    {
      address: 'terraform_data.a',
      mode: 'managed',
      type: 'terraform_data',
      name: 'a',
      provider_name: 'terraform.io/builtin/terraform',
      change: {
        actions: ['update'],
        before: { id: 'x', input: { user: 'admin', password: 'old-secret' }, triggers_replace: ['a', SECRET] },
        after: { id: 'x', input: { user: 'admin', password: SECRET }, triggers_replace: ['a', SECRET] },
        after_unknown: {},
        before_sensitive: { input: { password: true }, triggers_replace: [false, true] },
        after_sensitive: { input: { password: true }, triggers_replace: [false, true] },
      },
    },
  ],
  resource_drift: [],
  output_changes: {
    token: {
      actions: ['create'],
      before: null,
      after: SECRET,
      after_unknown: false,
      before_sensitive: false,
      after_sensitive: true,
    },
    plain: {
      actions: ['create'],
      before: null,
      after: 'visible',
      after_unknown: false,
      before_sensitive: false,
      after_sensitive: false,
    },
  },
  relevant_attributes: [{ resource: 'terraform_data.a', attribute: ['input'] }],
  prior_state: { values: { root_module: { resources: [{ values: { input: 'old-secret' } }] } } },
  configuration: { root_module: {} },
};
const SCHEMAS = {
  format_version: '1.0',
  provider_schemas: { 'terraform.io/builtin/terraform': { resource_schemas: { terraform_data: { version: 0 } } } },
};
const PLAN_BYTES = Buffer.from(JSON.stringify(PLAN, null, 1));
const SCHEMA_BYTES = Buffer.from(JSON.stringify(SCHEMAS));

describe('the JSON plan of an executed run', () => {
  let f: AccessFixture;
  let runId: string;
  let planId: string;
  const owner = () => ({ token: f.owner.token });
  const get = (kind: 'json-output' | 'json-output-redacted', token: string, id = planId) =>
    f.api.get(`${P}/plans/${id}/${kind}`, { token });
  const store = (plan = PLAN_BYTES, schemas = SCHEMA_BYTES) =>
    storePlanJson(f.api.store.db, runId, plan, schemas, now());
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BerthError);
    return (err as BerthError).status;
  };

  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
    runId = (await queueRun(f, f.web)).id;
    planId = `plan-${runId.slice('run-'.length)}`;
  });
  afterEach(() => f.api.close());

  it('answers 204 while the plan runs, then the JSON plan as stored to an admin, and keeps it after the run ended', async () => {
    expect((await get('json-output', f.owner.token)).status).toBe(204);
    expect((await get('json-output-redacted', f.owner.token)).status).toBe(204);
    await claim(f, runId, 'plan');
    expect((await get('json-output-redacted', f.owner.token)).status).toBe(204);
    await store();
    expect((await get('json-output', f.owner.token)).status).toBe(204);
    await finish(f, runId, 'plan');

    const whole = await get('json-output', f.owner.token);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.headers.get('content-type')).toContain('application/json');
    // Byte for byte what terraform printed, sensitive values and all: admins only.
    expect(whole.text).toBe(PLAN_BYTES.toString());

    // Discarded, the run ended: its saved plan is gone, its JSON plan is not.
    expect((await f.api.post(`${P}/runs/${runId}/actions/discard`, undefined, owner())).status).toBe(202);
    expect((await get('json-output', f.owner.token)).text).toBe(PLAN_BYTES.toString());
    expect((await get('json-output-redacted', f.owner.token)).status).toBe(200);
  });

  it('redacts what the plan marks sensitive, and keeps only what the CLI renders', async () => {
    await claim(f, runId, 'plan');
    await store();
    await finish(f, runId, 'plan');
    const res = await get('json-output-redacted', f.owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain('old-secret');
    const doc = JSON.parse(res.text);
    expect(Object.keys(doc).sort()).toEqual(
      [
        'plan_format_version',
        'output_changes',
        'resource_changes',
        'resource_drift',
        'relevant_attributes',
        'provider_format_version',
        'provider_schemas',
      ].sort(),
    );
    expect(doc.plan_format_version).toBe('1.2');
    expect(doc.provider_format_version).toBe('1.0');
    expect(doc.provider_schemas).toEqual(SCHEMAS.provider_schemas);
    expect(doc.relevant_attributes).toEqual(PLAN.relevant_attributes);
    const change = doc.resource_changes[0].change;
    // Placeholders of the same type; the one that changed differs from its before, the other not.
    expect(change.before).toEqual({ id: 'x', input: { user: 'admin', password: '' }, triggers_replace: ['a', ''] });
    expect(change.after).toEqual({ id: 'x', input: { user: 'admin', password: '*' }, triggers_replace: ['a', ''] });
    expect(change.after_sensitive).toEqual(PLAN.resource_changes[0].change.after_sensitive);
    expect(doc.output_changes.token).toMatchObject({ after: '*', after_sensitive: true });
    expect(doc.output_changes.plain.after).toBe('visible');
  });

  it('makes the redacted document once, when the plan is stored; a plan stored before that is redacted on read', async () => {
    await claim(f, runId, 'plan');
    await store();
    await finish(f, runId, 'plan');
    const first = await get('json-output-redacted', f.owner.token);
    expect(first.status, first.text).toBe(200);
    const db = f.api.store.db;
    // The stored schemas are not read again: the redacted document kept at store time answers.
    await db
      .updateTable('plan_json_outputs')
      .set({ provider_schemas: gzipSync('{}') })
      .where('run_id', '=', runId)
      .execute();
    expect((await get('json-output-redacted', f.owner.token)).text).toBe(first.text);
    // A row from before migration 039 (no redacted document): made from the plan and schemas.
    await db
      .updateTable('plan_json_outputs')
      .set({ provider_schemas: gzipSync(SCHEMA_BYTES), redacted_json: null })
      .where('run_id', '=', runId)
      .execute();
    const legacy = await get('json-output-redacted', f.owner.token);
    expect(legacy.status, legacy.text).toBe(200);
    expect(JSON.parse(legacy.text)).toEqual(JSON.parse(first.text));
    expect((await get('json-output', f.owner.token)).text).toBe(PLAN_BYTES.toString());
  });

  it('lets readers of the run read the redacted plan, only admins the whole one, strangers neither', async () => {
    await claim(f, runId, 'plan');
    await store();
    await finish(f, runId, 'plan');
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    const writer = await teamMember(f, 'writers');
    await grantWorkspace(f, writer.teamId, f.web, 'write');
    const admin = await teamMember(f, 'admins');
    await grantWorkspace(f, admin.teamId, f.web, 'admin');
    const stranger = await teamMember(f, 'strangers');
    const orgToken = await f.api.post(`${P}/organizations/acme/authentication-token`, undefined, owner());
    expect(orgToken.status, orgToken.text).toBe(201);
    const org = orgToken.body.data.attributes.token as string;

    for (const who of [reader.token, writer.token, admin.token, org]) {
      expect((await get('json-output-redacted', who)).status).toBe(200);
    }
    for (const who of [reader.token, writer.token, org, stranger.token]) {
      expect((await get('json-output', who)).status).toBe(404);
    }
    expect((await get('json-output', admin.token)).text).toBe(PLAN_BYTES.toString());
    expect((await get('json-output-redacted', stranger.token)).status).toBe(404);
    // Not a plan of this berth, or not a plan id at all.
    expect((await get('json-output-redacted', f.owner.token, 'plan-0000000000000000')).status).toBe(404);
    expect((await get('json-output-redacted', f.owner.token, runId)).status).toBe(404);
  });

  it('answers 404 for a plan that ended without a JSON plan', async () => {
    await claim(f, runId, 'plan');
    await finish(f, runId, 'plan');
    expect((await get('json-output', f.owner.token)).status).toBe(404);
    expect((await get('json-output-redacted', f.owner.token)).status).toBe(404);
  });

  it('takes JSON objects only, while the run plans, within the limit', async () => {
    expect(await refusal(store())).toBe(409);
    await claim(f, runId, 'plan');
    expect(await refusal(store(Buffer.from('not json')))).toBe(400);
    expect(await refusal(store(PLAN_BYTES, Buffer.from('[1]')))).toBe(400);
    const huge = Buffer.alloc(MAX_PLAN_JSON_BYTES - PLAN_BYTES.length + 1, 0x20);
    expect(await refusal(store(PLAN_BYTES, huge))).toBe(413);
    expect(await f.api.store.db.selectFrom('plan_json_outputs').selectAll().execute()).toEqual([]);
    await store();
    await store(Buffer.from('{"format_version":"1.2"}'));
    await finish(f, runId, 'plan');
    // A second store replaced the first.
    expect((await get('json-output', f.owner.token)).text).toBe('{"format_version":"1.2"}');
  });
});
