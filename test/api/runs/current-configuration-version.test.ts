import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessFixture } from '../../helpers/access.js';
import {
  ARCHIVE,
  claim,
  cvBody,
  executingFixture,
  finish,
  newConfiguration,
  P,
  runBody,
  runStatus,
  sendBytes,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * A workspace's `current-configuration-version` (HCP: the last configuration received, excluding
 * plan-only ones): the newest uploaded version that is not speculative, and not provisional
 * (`terraform plan -out`) until a run of it applied, unless a newer one is current by then. What
 * `include=current_configuration_version` and `include=current_run.configuration_version` bring,
 * and what a run created without a configuration version plans.
 */
describe('the current configuration version of a workspace', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const current = async () =>
    (await workspaceDoc(f, f.web)).data.relationships['current-configuration-version'].data?.id ?? null;
  /** A created (not uploaded) version with these attributes, and its upload URL. */
  const created = async (attributes: Record<string, unknown>) => {
    const res = await f.api.post(
      `${P}/workspaces/${f.web}/configuration-versions`,
      cvBody({ 'auto-queue-runs': false, ...attributes }),
      t(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  const upload = async (cv: any) =>
    expect((await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], ARCHIVE)).status).toBe(200);
  /** Runs a run of `cv` through its plan to `applied` (or `discard`s it once planned). */
  const runOf = async (cv: string, end: 'apply' | 'discard' = 'apply') => {
    const res = await f.api.post(`${P}/runs`, runBody(f.web, {}, cv), t());
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.id;
    await claim(f, id, 'plan');
    await finish(f, id, 'plan');
    expect((await f.api.post(`${P}/runs/${id}/actions/${end}`, undefined, t())).status).toBe(202);
    if (end === 'apply') {
      await claim(f, id, 'apply');
      await finish(f, id, 'apply', { outcome: 'finished' });
    }
    expect(await runStatus(f, id)).toBe(end === 'apply' ? 'applied' : 'discarded');
    return id;
  };

  it('is the newest uploaded version, never a pending, speculative or provisional one', async () => {
    expect((await workspaceDoc(f, f.web)).data.relationships['current-configuration-version']).toEqual({
      data: null,
    });
    const first = await newConfiguration(f, f.web);
    expect(await current()).toBe(first.id);
    const doc = (await workspaceDoc(f, f.web)).data.relationships['current-configuration-version'];
    expect(doc).toEqual({
      data: { type: 'configuration-versions', id: first.id },
      links: { related: `${P}/configuration-versions/${first.id}` },
    });

    await created({}); // pending: not received yet
    await newConfiguration(f, f.web, { speculative: true });
    await upload(await created({ provisional: true }));
    expect(await current()).toBe(first.id);

    // Created in one order, uploaded in the other: the newer one stays current.
    const older = await created({});
    const newer = await created({});
    await upload(newer);
    expect(await current()).toBe(newer.id);
    await upload(older);
    expect(await current()).toBe(newer.id);
  });

  it('a provisional version becomes current when a run of it applied, unless a newer one is', async () => {
    const base = await newConfiguration(f, f.web);
    const provisional = await created({ provisional: true });
    expect(provisional.attributes.provisional).toBe(true);
    await upload(provisional);
    await runOf(provisional.id, 'discard');
    expect(await current()).toBe(base.id);
    await runOf(provisional.id);
    expect(await current()).toBe(provisional.id);

    // Planned before a newer version was uploaded, applied after: the newer one stays current.
    const late = await created({ provisional: true });
    await upload(late);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, {}, late.id), t());
    const run = res.body.data.id;
    await claim(f, run, 'plan');
    await finish(f, run, 'plan');
    const newer = await newConfiguration(f, f.web);
    expect((await f.api.post(`${P}/runs/${run}/actions/apply`, undefined, t())).status).toBe(202);
    await claim(f, run, 'apply');
    await finish(f, run, 'apply', { outcome: 'finished' });
    expect(await runStatus(f, run)).toBe('applied');
    expect(await current()).toBe(newer.id);
  });

  it('is what a run created without a configuration version plans (422 while there is none)', async () => {
    const none = await f.api.post(`${P}/runs`, runBody(f.web), t());
    expect(none.status).toBe(422);
    expect(none.body.errors[0].source.pointer).toBe('/data/relationships/configuration-version/data/id');
    expect(none.body.errors[0].detail).toContain('no current configuration version');
    const base = await newConfiguration(f, f.web);
    // Newer, but speculative and provisional: the run still plans the current one.
    await newConfiguration(f, f.web, { speculative: true });
    await upload(await created({ provisional: true }));
    const res = await f.api.post(`${P}/runs`, runBody(f.web), t());
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.relationships['configuration-version'].data.id).toBe(base.id);
    expect(res.body.data.attributes['plan-only']).toBe(false);
  });

  it('include=current_configuration_version (and .ingress_attributes) includes it, without an upload URL', async () => {
    // Without one, nothing is included.
    expect((await workspaceDoc(f, f.web, '?include=current_configuration_version')).included ?? []).toEqual([]);
    const cv = await newConfiguration(f, f.web);
    for (const include of ['current_configuration_version', 'current_configuration_version.ingress_attributes']) {
      const doc = await workspaceDoc(f, f.web, `?include=${include}`);
      expect(
        doc.included.map((r: any) => [r.type, r.id]),
        include,
      ).toEqual([['configuration-versions', cv.id]]);
      expect(doc.included[0].attributes).toMatchObject({ status: 'uploaded', speculative: false, provisional: false });
      expect(doc.included[0].attributes).not.toHaveProperty('upload-url');
      // berth has no VCS: the version has no ingress attributes to include.
      expect(doc.included[0].relationships['ingress-attributes']).toEqual({ data: null });
    }
    // The list includes them too.
    const list = await f.api.get(`${P}/organizations/acme/workspaces?include=current_configuration_version`, t());
    expect(list.status).toBe(200);
    expect(list.body.included.map((r: any) => r.id)).toEqual([cv.id]);
  });

  it('include=current_run.configuration_version includes the current run naming its version, and the version', async () => {
    // The current run plans an older version than the current one.
    const older = await newConfiguration(f, f.web);
    const base = await newConfiguration(f, f.web);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, {}, older.id), t());
    expect(res.status, res.text).toBe(201);
    const run = res.body.data.id;
    for (const include of [
      'current_run.configuration_version',
      'current_run.configuration_version.ingress_attributes',
    ]) {
      const doc = await workspaceDoc(f, f.web, `?include=${include}`);
      expect(doc.data.relationships['current-run'].data.id).toBe(run);
      const included = new Map(doc.included.map((r: any) => [`${r.type}/${r.id}`, r]));
      expect([...included.keys()].sort(), include).toEqual(
        [`configuration-versions/${older.id}`, `runs/${run}`].sort(),
      );
      expect((included.get(`runs/${run}`) as any).relationships['configuration-version'].data).toEqual({
        type: 'configuration-versions',
        id: older.id,
      });
    }
    // Both at once: each version once.
    const both = await workspaceDoc(
      f,
      f.web,
      '?include=current_configuration_version,current_run.configuration_version',
    );
    expect(both.included.map((r: any) => `${r.type}/${r.id}`).sort()).toEqual(
      [`configuration-versions/${base.id}`, `configuration-versions/${older.id}`, `runs/${run}`].sort(),
    );
  });
});
