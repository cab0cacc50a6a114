import { Hono } from 'hono';
import {
  getGeneralSettings,
  parseGeneralSettings,
  updateGeneralSettings,
} from '../../../services/instance/general-settings.js';
import { readResource } from '../../body.js';
import { sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializeGeneralSettings } from '../../serializers/general-settings.js';

/** Terraform Enterprise's `/admin/general-settings` (self-hosted edition, site administrators). */
export function adminSettingsRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/admin/general-settings', async (c) =>
    sendResource(c, serializeGeneralSettings(await getGeneralSettings(c.get('ctx')))),
  );
  r.patch('/admin/general-settings', async (c) => {
    const input = parseGeneralSettings((await readResource(c, 'general-settings', { untyped: true })).attributes);
    return sendResource(c, serializeGeneralSettings(await updateGeneralSettings(c.get('ctx'), input)));
  });
  return r;
}
