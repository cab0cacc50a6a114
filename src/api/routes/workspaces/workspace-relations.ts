import { bindingsNamed } from '../../../domain/workspaces/tags.js';
import { Hono, type Context } from 'hono';
import { invalid } from '../../../domain/common/errors.js';
import { parseFlatTagRefs } from '../../../domain/workspaces/flat-tags.js';
import { parseIdentifiers } from '../../../domain/common/identifiers.js';
import { parseRetentionPolicy } from '../../../domain/instance/retention.js';
import { parseSshKeyAssignment, parseSshKeyInput } from '../../../domain/organizations/ssh-key.js';
import { parseTagBindings, type TagBindingInput } from '../../../domain/workspaces/tags.js';
import type { Workspace } from '../../../domain/workspaces/workspace.js';
import type { ServiceContext } from '../../../services/context.js';
import * as retention from '../../../services/instance/data-retention.js';
import {
  addWorkspaceTags,
  listOrganizationTags,
  listWorkspaceTags,
  removeWorkspaceTags,
} from '../../../services/workspaces/flat-tags.js';
import {
  changeRemoteStateConsumers,
  listRemoteStateConsumers,
} from '../../../services/workspaces/remote-state-consumers.js';
import {
  assignSshKey,
  createSshKey,
  deleteSshKey,
  getSshKey,
  listSshKeys,
  updateSshKey,
} from '../../../services/organizations/ssh-keys.js';
import {
  addWorkspaceTagBindings,
  listWorkspaceEffectiveTagBindings,
  listWorkspaceTagBindings,
  replaceWorkspaceTagBindings,
} from '../../../services/workspaces/workspace-tag-bindings.js';
import type { WorkspaceRef } from '../../../services/workspaces/workspaces-read.js';
import { readJson, readResource } from '../../body.js';
import { API_PREFIX, sendCollection, sendList, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeFlatTag, serializeRetentionPolicy, serializeSshKey } from '../../serializers/relations.js';
import { serializeTagBinding } from '../../serializers/tag-binding.js';
import { serializeEffectiveTagBinding, serializeWorkspace } from '../../serializers/workspace.js';

const byId = (c: Context<AppEnv>): WorkspaceRef => ({ id: c.req.param('id')! });
const byName = (c: Context<AppEnv>): WorkspaceRef => ({
  organization: c.req.param('org')!,
  name: c.req.param('name')!,
});

const plain = (ctx: ServiceContext) => (w: Workspace) => serializeWorkspace(w, { edition: ctx.settings.edition });

/** A top-level `{"data": [tag-bindings...]}` body. */
async function readTagBindings(c: Context): Promise<TagBindingInput[]> {
  const body = await readJson(c);
  if (body!.data === undefined) throw invalid('/data', 'request body must contain a data member');
  return parseTagBindings(body!.data, '/data');
}

/** A policy document: `{"data": {"type": "data-retention-policy-…", "attributes": {...}}}`. */
async function readPolicy(c: Context) {
  const body = await readJson(c);
  const data = body!.data;
  if (data === undefined) throw invalid('/data', 'request body must contain a data member');
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalid('/data', 'data must be an object');
  return parseRetentionPolicy(data as Record<string, unknown>);
}

/**
 * The relations of a workspace (SSH key, remote state consumers, flat tags, key-value tag
 * bindings, data retention policy), SSH keys, organization tags and the organization's default
 * data retention policy. Workspace paths work by id and by organization and name alike.
 */
export function workspaceRelationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  // SSH keys of an organization.
  r.post('/organizations/:org/ssh-keys', async (c) => {
    const input = parseSshKeyInput((await readResource(c, 'ssh-keys')).attributes, 'create');
    return sendResource(c, serializeSshKey(await createSshKey(c.get('ctx'), c.req.param('org'), input)), {
      status: 201,
    });
  });
  r.get('/organizations/:org/ssh-keys', async (c) =>
    sendCollection(c, await listSshKeys(c.get('ctx'), c.req.param('org'), pageOf(c)), serializeSshKey),
  );
  r.get('/ssh-keys/:id', async (c) =>
    sendResource(c, serializeSshKey(await getSshKey(c.get('ctx'), c.req.param('id')))),
  );
  r.patch('/ssh-keys/:id', async (c) => {
    const input = parseSshKeyInput((await readResource(c, 'ssh-keys')).attributes, 'update');
    return sendResource(c, serializeSshKey(await updateSshKey(c.get('ctx'), c.req.param('id'), input)));
  });
  r.delete('/ssh-keys/:id', async (c) => {
    await deleteSshKey(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  // Flat tags of the organization.
  r.get('/organizations/:org/tags', async (c) =>
    sendCollection(
      c,
      await listOrganizationTags(
        c.get('ctx'),
        c.req.param('org'),
        pageOf(c),
        queryParam(c, 'q'),
        queryParam(c, 'filter[exclude][taggable][id]'),
      ),
      serializeFlatTag,
    ),
  );

  // The site-wide default that organizations without a policy inherit (site administrators,
  // self-hosted only; TFE's path). PATCH is POST.
  r.get('/admin/data-retention-policy-settings', async (c) =>
    sendResource(c, serializeRetentionPolicy(await retention.getSitePolicy(c.get('ctx')))),
  );
  for (const method of ['post', 'patch'] as const) {
    r[method]('/admin/data-retention-policy-settings', async (c) => {
      const ctx = c.get('ctx');
      retention.requireSelfHosted(ctx);
      return sendResource(c, serializeRetentionPolicy(await retention.setSitePolicy(ctx, await readPolicy(c))));
    });
  }
  r.delete('/admin/data-retention-policy-settings', async (c) => {
    await retention.deleteSitePolicy(c.get('ctx'));
    return c.body(null, 204);
  });

  // The organization's default data retention policy (self-hosted only). PATCH is POST.
  r.get('/organizations/:org/relationships/data-retention-policy', async (c) =>
    sendResource(c, serializeRetentionPolicy(await retention.getOrganizationPolicy(c.get('ctx'), c.req.param('org')))),
  );
  for (const method of ['post', 'patch'] as const) {
    r[method]('/organizations/:org/relationships/data-retention-policy', async (c) => {
      const ctx = c.get('ctx');
      retention.requireSelfHosted(ctx);
      return sendResource(
        c,
        serializeRetentionPolicy(await retention.setOrganizationPolicy(ctx, c.req.param('org'), await readPolicy(c))),
      );
    });
  }
  r.delete('/organizations/:org/relationships/data-retention-policy', async (c) => {
    await retention.deleteOrganizationPolicy(c.get('ctx'), c.req.param('org'));
    return c.body(null, 204);
  });

  for (const [base, ref] of [
    ['/workspaces/:id', byId],
    ['/organizations/:org/workspaces/:name', byName],
  ] as const) {
    // SSH key assignment: 200 with the workspace document.
    r.patch(`${base}/relationships/ssh-key`, async (c) => {
      const ctx = c.get('ctx');
      const keyId = parseSshKeyAssignment((await readJson(c))!);
      return sendResource(c, plain(ctx)(await assignSshKey(ctx, ref(c), keyId)));
    });

    // Remote state consumers.
    r.get(`${base}/relationships/remote-state-consumers`, async (c) => {
      const ctx = c.get('ctx');
      return sendCollection(c, await listRemoteStateConsumers(ctx, ref(c), pageOf(c)), plain(ctx));
    });
    for (const [method, change] of [
      ['post', 'add'],
      ['delete', 'remove'],
      ['patch', 'replace'],
    ] as const) {
      r[method](`${base}/relationships/remote-state-consumers`, async (c) => {
        const ids = parseIdentifiers((await readJson(c))!, 'workspaces');
        await changeRemoteStateConsumers(c.get('ctx'), ref(c), change, ids);
        return c.body(null, 204);
      });
    }

    // Flat tags.
    r.get(`${base}/relationships/tags`, async (c) =>
      sendCollection(
        c,
        await listWorkspaceTags(c.get('ctx'), ref(c), pageOf(c), queryParam(c, 'name')),
        serializeFlatTag,
      ),
    );
    r.post(`${base}/relationships/tags`, async (c) => {
      await addWorkspaceTags(c.get('ctx'), ref(c), parseFlatTagRefs((await readJson(c))!.data));
      return c.body(null, 204);
    });
    r.delete(`${base}/relationships/tags`, async (c) => {
      await removeWorkspaceTags(c.get('ctx'), ref(c), parseFlatTagRefs((await readJson(c))!.data));
      return c.body(null, 204);
    });

    // Key-value tag bindings: the documented paths (PATCH adds, 200 with every binding) ...
    r.get(`${base}/tag-bindings`, async (c) => {
      const { workspaceId, bindings } = await listWorkspaceTagBindings(c.get('ctx'), ref(c));
      return sendList(c, bindings.map(serializeTagBinding), {
        links: { target: `${API_PREFIX}/workspaces/${workspaceId}` },
      });
    });
    r.patch(`${base}/tag-bindings`, async (c) => {
      const incoming = await readTagBindings(c);
      const all = await addWorkspaceTagBindings(c.get('ctx'), ref(c), incoming);
      return sendList(c, bindingsNamed(all, incoming).map(serializeTagBinding));
    });
    r.get(`${base}/effective-tag-bindings`, async (c) =>
      sendList(c, (await listWorkspaceEffectiveTagBindings(c.get('ctx'), ref(c))).map(serializeEffectiveTagBinding)),
    );
    // ... and the relationship form newer clients use: POST adds, PATCH replaces, both 204.
    r.get(`${base}/relationships/tag-bindings`, async (c) =>
      sendList(c, (await listWorkspaceTagBindings(c.get('ctx'), ref(c))).bindings.map(serializeTagBinding)),
    );
    r.post(`${base}/relationships/tag-bindings`, async (c) => {
      await addWorkspaceTagBindings(c.get('ctx'), ref(c), await readTagBindings(c));
      return c.body(null, 204);
    });
    r.patch(`${base}/relationships/tag-bindings`, async (c) => {
      await replaceWorkspaceTagBindings(c.get('ctx'), ref(c), await readTagBindings(c));
      return c.body(null, 204);
    });

    // Data retention policy (self-hosted only). PATCH is POST.
    r.get(`${base}/relationships/data-retention-policy`, async (c) =>
      sendResource(c, serializeRetentionPolicy(await retention.getWorkspacePolicy(c.get('ctx'), ref(c)))),
    );
    for (const method of ['post', 'patch'] as const) {
      r[method](`${base}/relationships/data-retention-policy`, async (c) => {
        const ctx = c.get('ctx');
        retention.requireSelfHosted(ctx);
        return sendResource(
          c,
          serializeRetentionPolicy(await retention.setWorkspacePolicy(ctx, ref(c), await readPolicy(c))),
        );
      });
    }
    r.delete(`${base}/relationships/data-retention-policy`, async (c) => {
      await retention.deleteWorkspacePolicy(c.get('ctx'), ref(c));
      return c.body(null, 204);
    });
  }

  // Pruning by the retention policies (berth extension, site administrators, self-hosted). A GET
  // answers what a POST would delete now, deleting nothing.
  r.get('/admin/maintenance/prune', async (c) => {
    const result = await retention.previewPrune(c.get('ctx'));
    return sendResource(c, {
      id: 'prune',
      type: 'prune-results',
      attributes: {
        workspaces: result.workspaces,
        'state-versions': result.stateVersions,
        runs: result.runs,
        'dry-run': true,
      },
    });
  });
  r.post('/admin/maintenance/prune', async (c) => {
    const result = await retention.pruneRetainedData(c.get('ctx'));
    return sendResource(c, {
      id: 'prune',
      type: 'prune-results',
      attributes: { workspaces: result.workspaces, 'state-versions': result.stateVersions, runs: result.runs },
    });
  });

  return r;
}
