import { Hono } from 'hono';
import { parseIdentifiers } from '../../../domain/common/identifiers.js';
import { parseReservedTagKeyInput } from '../../../domain/organizations/reserved-tag-key.js';
import { addTagToWorkspaces, deleteOrganizationTags } from '../../../services/organizations/organization-tags.js';
import * as keys from '../../../services/organizations/reserved-tag-keys.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf } from '../../query.js';
import { serializeReservedTagKey } from '../../serializers/reserved-tag-key.js';

/**
 * Tags at the organization level: deleting flat tags, putting one on many workspaces, and the
 * reserved tag keys. Reserved key updates and deletes answer under `/reserved-tag-keys/:id` (what
 * go-tfe calls) and `/reserved-tags/:id` (the path HCP Terraform's documentation gives).
 */
export function organizationTagRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.delete('/organizations/:org/tags', async (c) => {
    await deleteOrganizationTags(c.get('ctx'), c.req.param('org'), parseIdentifiers((await readJson(c))!, 'tags'));
    return c.body(null, 204);
  });
  r.post('/tags/:id/relationships/workspaces', async (c) => {
    await addTagToWorkspaces(c.get('ctx'), c.req.param('id'), parseIdentifiers((await readJson(c))!, 'workspaces'));
    return c.body(null, 204);
  });

  r.get('/organizations/:org/reserved-tag-keys', async (c) =>
    sendCollection(
      c,
      await keys.listReservedTagKeys(c.get('ctx'), c.req.param('org'), pageOf(c)),
      serializeReservedTagKey,
    ),
  );
  r.post('/organizations/:org/reserved-tag-keys', async (c) => {
    const input = parseReservedTagKeyInput((await readResource(c, 'reserved-tag-keys')).attributes, 'create');
    const key = await keys.createReservedTagKey(c.get('ctx'), c.req.param('org'), input);
    return sendResource(c, serializeReservedTagKey(key), { status: 201 });
  });
  for (const base of ['/reserved-tag-keys/:id', '/reserved-tags/:id']) {
    r.patch(base, async (c) => {
      const input = parseReservedTagKeyInput((await readResource(c, 'reserved-tag-keys')).attributes, 'update');
      return sendResource(
        c,
        serializeReservedTagKey(await keys.updateReservedTagKey(c.get('ctx'), c.req.param('id')!, input)),
      );
    });
    r.delete(base, async (c) => {
      await keys.deleteReservedTagKey(c.get('ctx'), c.req.param('id')!);
      return c.body(null, 204);
    });
  }
  return r;
}
