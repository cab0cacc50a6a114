import { Hono } from 'hono';
import { parseOrganizationAttributes } from '../../../domain/organizations/organization.js';
import { getEntitlements } from '../../../services/organizations/entitlements.js';
import * as orgs from '../../../services/organizations/organizations.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam } from '../../query.js';
import { serializeEntitlements, serializeOrganization } from '../../serializers/organization.js';
import { serializeProject } from '../../serializers/project.js';

const INCLUDES = ['default_project'] as const;

export function organizationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/organizations', async (c) => {
    const page = pageOf(c);
    const paged = await orgs.listOrganizations(c.get('ctx'), page, queryParam(c, 'q'));
    return sendCollection(c, paged, serializeOrganization);
  });

  r.post('/organizations', async (c) => {
    const body = await readResource(c, 'organizations');
    const input = parseOrganizationAttributes(body.attributes, 'create', body.relationships);
    const org = await orgs.createOrganization(c.get('ctx'), input);
    return sendResource(c, serializeOrganization(org), { status: 201 });
  });

  r.get('/organizations/:name', async (c) => {
    const include = includesOf(c, INCLUDES);
    const ctx = c.get('ctx');
    const org = await orgs.getOrganization(ctx, c.req.param('name'));
    const included = include.has('default_project')
      ? [serializeProject(await orgs.getDefaultProject(ctx, org.name))]
      : [];
    return sendResource(c, serializeOrganization(org), { included });
  });

  r.patch('/organizations/:name', async (c) => {
    const body = await readResource(c, 'organizations');
    const input = parseOrganizationAttributes(body.attributes, 'update', body.relationships);
    const org = await orgs.updateOrganization(c.get('ctx'), c.req.param('name'), input);
    return sendResource(c, serializeOrganization(org));
  });

  r.get('/organizations/:name/entitlement-set', async (c) => {
    const { organization, capabilities } = await getEntitlements(c.get('ctx'), c.req.param('name'));
    return sendResource(c, serializeEntitlements(organization, capabilities));
  });

  r.delete('/organizations/:name', async (c) => {
    await orgs.deleteOrganization(c.get('ctx'), c.req.param('name'));
    return c.body(null, 204);
  });

  return r;
}
