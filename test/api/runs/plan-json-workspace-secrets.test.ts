import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storePlanJson } from '../../../src/services/runs/plan-json.js';
import type { AccessFixture } from '../../helpers/access.js';
import { claim, executingFixture, finish, newConfiguration, now, P, queueRun } from '../../helpers/run-execution.js';

/**
 * Issue 42, item 6: `GET /plans/:id/json-output-redacted` hides the workspace's sensitive values
 * (of its variables and variable sets, an HCL one's every string and number leaf) wherever the plan
 * holds them, as the run's log does, also where terraform marks nothing sensitive (the
 * configuration does not declare the variable sensitive). `json-output` stays terraform's own
 * document, for the workspace's admins.
 */

const PLAIN = 'plain-secret-value';
const INNER = 'inner-secret-leaf';
const PIN = 48151623;
const ENV = 'env-secret-value';

/** terraform show -json of a plan that got those values through variables not declared sensitive. */
const PLAN = {
  format_version: '1.2',
  terraform_version: '1.11.4',
  variables: { plain: { value: PLAIN }, creds: { value: { inner: INNER, pin: PIN } } },
  resource_changes: [
    {
      address: `terraform_data.by_key["${INNER}"]`,
      mode: 'managed',
      type: 'terraform_data',
      name: 'by_key',
      index: INNER,
      provider_name: 'terraform.io/builtin/terraform',
      change: {
        actions: ['update'],
        before: { id: 'x', input: { note: 'was nothing', pin: 0, list: ['a', 'b'] } },
        after: { id: 'x', input: { note: `made of ${PLAIN}`, pin: PIN, list: ['a', ENV] } },
        after_unknown: {},
        before_sensitive: {},
        after_sensitive: {},
        replace_paths: [['input', INNER]],
      },
    },
  ],
  output_changes: {
    creds: {
      actions: ['create'],
      before: null,
      after: { inner: INNER, pin: PIN },
      after_unknown: false,
      before_sensitive: false,
      after_sensitive: false,
    },
    keyed: {
      actions: ['create'],
      before: null,
      after: { [PLAIN]: 'value of a secret key' },
      after_unknown: false,
      before_sensitive: false,
      after_sensitive: false,
    },
    shown: {
      actions: ['create'],
      before: null,
      after: 'nothing secret',
      after_unknown: false,
      before_sensitive: false,
      after_sensitive: false,
    },
  },
  relevant_attributes: [{ resource: `terraform_data.by_key["${INNER}"]`, attribute: ['input'] }],
  prior_state: { values: { root_module: { resources: [{ values: { input: PLAIN } }] } } },
  configuration: { root_module: { variables: { plain: { default: PLAIN } } } },
};
const PLAN_BYTES = Buffer.from(JSON.stringify(PLAN));
const SCHEMAS = Buffer.from(JSON.stringify({ format_version: '1.0', provider_schemas: {} }));

describe('the redacted JSON plan and the workspace sensitive values', () => {
  let f: AccessFixture;
  let runId: string;
  let planId: string;
  const owner = () => ({ token: f.owner.token });
  const variable = async (attributes: Record<string, unknown>) => {
    const body = { data: { type: 'vars', attributes: { category: 'terraform', ...attributes } } };
    const res = await f.api.post(`${P}/workspaces/${f.web}/vars`, body, owner());
    expect(res.status, res.text).toBe(201);
  };

  beforeEach(async () => {
    f = await executingFixture();
    await variable({ key: 'plain', value: PLAIN, sensitive: true });
    await variable({ key: 'creds', value: `{ inner = "${INNER}", pin = ${PIN} }`, hcl: true, sensitive: true });
    await variable({ key: 'SOME_TOKEN', value: ENV, category: 'env', sensitive: true });
    await variable({ key: 'region', value: 'nothing secret', sensitive: false });
    await newConfiguration(f, f.web);
    runId = (await queueRun(f, f.web)).id;
    planId = `plan-${runId.slice('run-'.length)}`;
    await claim(f, runId, 'plan');
    await storePlanJson(f.api.store.db, runId, PLAN_BYTES, SCHEMAS, now());
    await finish(f, runId, 'plan');
  });
  afterEach(() => f.api.close());

  it('holds none of them, and marks sensitive the values that held one', async () => {
    const res = await f.api.get(`${P}/plans/${planId}/json-output-redacted`, owner());
    expect(res.status, res.text).toBe(200);
    for (const secret of [PLAIN, INNER, String(PIN), ENV]) expect(res.text).not.toContain(secret);
    const doc = JSON.parse(res.text);
    // An output holding leaves: each is marked, the CLI prints it `(sensitive value)`.
    expect(doc.output_changes.creds).toMatchObject({
      after: { inner: '*', pin: 1 },
      after_sensitive: { inner: true, pin: true },
    });
    // A key holding one hides its collection whole.
    expect(doc.output_changes.keyed).toMatchObject({ after: {}, after_sensitive: true });
    expect(doc.output_changes.shown).toMatchObject({ after: 'nothing secret', after_sensitive: false });
    // Attribute by attribute: what held nothing stays, a changed value shows as changed.
    const change = doc.resource_changes[0].change;
    expect(change.after).toEqual({ id: 'x', input: { note: '*', pin: 1, list: ['a', '*'] } });
    expect(change.after_sensitive).toEqual({ input: { note: true, pin: true, list: [false, true] } });
    expect(change.before).toEqual(PLAN.resource_changes[0].change.before);
    // The plan's own text: the for_each key in the address, the index and the paths.
    expect(doc.resource_changes[0]).toMatchObject({
      address: 'terraform_data.by_key["(sensitive value)"]',
      index: '(sensitive value)',
      mode: 'managed',
      type: 'terraform_data',
    });
    expect(change.replace_paths).toEqual([['input', '(sensitive value)']]);
    expect(doc.relevant_attributes[0].resource).toBe('terraform_data.by_key["(sensitive value)"]');
  });

  it('json-output stays the plan terraform made, for the workspace admins only', async () => {
    const res = await f.api.get(`${P}/plans/${planId}/json-output`, owner());
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe(PLAN_BYTES.toString());
  });
});
