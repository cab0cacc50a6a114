import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_ENGINE_VERSION } from '../../../src/domain/workspaces/engine-version.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { EXECUTING, P } from '../../helpers/run-execution.js';

/**
 * The terraform-version of a workspace created without one: on an instance that executes runs,
 * the executor binary's version (asked at start-up), so that its runs can execute; elsewhere the
 * newest release berth knows. A version given is kept as given.
 */
describe('the default terraform-version of new workspaces', () => {
  let f: AccessFixture;
  afterEach(() => f.api.close());
  const create = (attributes: Record<string, unknown>) =>
    f.api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes } },
      {
        token: f.owner.token,
      },
    );

  it('is the executor binary version when the instance executes runs; a given one stays', async () => {
    f = await accessFixture(await TestApi.create({ settings: { ...EXECUTING, terraformVersion: '1.11.4' } }));
    const plain = await create({ name: 'plain' });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.data.attributes['terraform-version']).toBe('1.11.4');
    const pinned = await create({ name: 'pinned', 'terraform-version': '1.5.7' });
    expect(pinned.body.data.attributes['terraform-version']).toBe('1.5.7');
    const constrained = await create({ name: 'constrained', 'terraform-version': '~> 1.9.0' });
    expect(constrained.body.data.attributes['terraform-version']).toBe('~> 1.9.0');
  });

  it('is the newest known release without an executor', async () => {
    f = await accessFixture(await TestApi.create());
    const plain = await create({ name: 'plain' });
    expect(plain.body.data.attributes['terraform-version']).toBe(LATEST_ENGINE_VERSION);
  });

  it("accepts the binary's version even when berth does not know that release; others stay refused", async () => {
    f = await accessFixture(await TestApi.create({ settings: { ...EXECUTING, terraformVersion: '1.99.0' } }));
    expect((await create({ name: 'plain' })).body.data.attributes['terraform-version']).toBe('1.99.0');
    const given = await create({ name: 'given', 'terraform-version': '1.99.0' });
    expect(given.status, given.text).toBe(201);
    const updated = await f.api.patch(
      `${P}/organizations/acme/workspaces/given`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': '1.99.0' } } },
      { token: f.owner.token },
    );
    expect(updated.status, updated.text).toBe(200);
    const unknown = await create({ name: 'unknown', 'terraform-version': '1.99.1' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source.pointer).toBe('/data/attributes/terraform-version');
  });
});
