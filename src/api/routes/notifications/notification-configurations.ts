import { Hono, type Context } from 'hono';
import { invalid } from '../../../domain/common/errors.js';
import type { Subscribable } from '../../../domain/notifications/notification-configuration.js';
import { parseNotificationConfigurationInput } from '../../../domain/notifications/notification-input.js';
import {
  createNotificationConfiguration,
  deleteNotificationConfiguration,
  getNotificationConfiguration,
  listNotificationConfigurations,
  updateNotificationConfiguration,
  verifyNotificationConfiguration,
} from '../../../services/notifications/notification-configurations.js';
import { readJson } from '../../body.js';
import { sendCollection, sendList, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf } from '../../query.js';
import { serializeNotificationConfiguration } from '../../serializers/notification-configuration.js';

/**
 * HCP Terraform's Notification Configurations API: a workspace's and a team's configurations,
 * one by id, and its verification (docs/api.md, "Notification configurations").
 */

/** The body's resource: `notification-configurations` (or HCP's sample's singular, or none, as go-tfe may send). */
async function readConfiguration(c: Context<AppEnv>) {
  const body = await readJson(c);
  const data = body!.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalid('/data', 'request body must contain a data object');
  const d = data as Record<string, unknown>;
  if (![undefined, '', 'notification-configurations', 'notification-configuration'].includes(d.type as string))
    throw invalid('/data/type', 'type must be "notification-configurations"');
  const rels = d.relationships ?? {};
  if (rels === null || typeof rels !== 'object' || Array.isArray(rels))
    throw invalid('/data/relationships', 'relationships must be an object');
  return { attributes: d.attributes, relationships: rels as Record<string, unknown> };
}

/** Paged only when the query asks for a page, as HCP: without, every configuration and no `meta`. */
const asksForPage = (c: Context<AppEnv>) =>
  c.req.query('page[number]') !== undefined || c.req.query('page[size]') !== undefined;

export function notificationConfigurationRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const subscribable = (type: Subscribable['type']) => (c: Context<AppEnv>) =>
    ({ type, id: c.req.param('id') }) as Subscribable;

  for (const [path, of] of [
    ['/workspaces/:id/notification-configurations', subscribable('workspaces')],
    ['/teams/:id/notification-configurations', subscribable('teams')],
  ] as const) {
    r.post(path, async (c) => {
      const body = await readConfiguration(c);
      const input = parseNotificationConfigurationInput(body.attributes, body.relationships, 'create');
      const nc = await createNotificationConfiguration(c.get('ctx'), of(c), input);
      return sendResource(c, serializeNotificationConfiguration(nc), { status: 201 });
    });
    r.get(path, async (c) => {
      const list = await listNotificationConfigurations(c.get('ctx'), of(c), asksForPage(c) ? pageOf(c) : null);
      if (list.page === null) return sendList(c, list.items.map(serializeNotificationConfiguration));
      return sendCollection(c, list, serializeNotificationConfiguration);
    });
  }
  r.get('/notification-configurations/:id', async (c) =>
    sendResource(
      c,
      serializeNotificationConfiguration(await getNotificationConfiguration(c.get('ctx'), c.req.param('id'))),
    ),
  );
  r.patch('/notification-configurations/:id', async (c) => {
    const body = await readConfiguration(c);
    const input = parseNotificationConfigurationInput(body.attributes, body.relationships, 'update');
    const nc = await updateNotificationConfiguration(c.get('ctx'), c.req.param('id'), input);
    return sendResource(c, serializeNotificationConfiguration(nc));
  });
  r.delete('/notification-configurations/:id', async (c) => {
    await deleteNotificationConfiguration(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  r.post('/notification-configurations/:id/actions/verify', async (c) =>
    sendResource(
      c,
      serializeNotificationConfiguration(await verifyNotificationConfiguration(c.get('ctx'), c.req.param('id'))),
    ),
  );
  return r;
}
