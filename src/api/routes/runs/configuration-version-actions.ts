import { Hono } from 'hono';
import { BACKING_DATA_ACTIONS } from '../../../domain/common/backing-data.js';
import {
  archiveConfigurationVersion,
  manageConfigurationBackingData,
} from '../../../services/runs/configuration-version-actions.js';
import type { AppEnv } from '../../env.js';

/**
 * The actions on a configuration version (token-authenticated). None takes a body (HCP: "This
 * POST endpoint does not take a request body"; go-tfe sends an empty one): any is ignored.
 */
export function configurationVersionActionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  // HCP answers 202 (it archives later); berth has archived by then.
  r.post('/configuration-versions/:id/actions/archive', async (c) => {
    await archiveConfigurationVersion(c.get('ctx'), c.req.param('id'));
    return c.body(null, 202);
  });
  // As for state versions (routes/state-versions.ts): 204.
  for (const action of BACKING_DATA_ACTIONS) {
    r.post(`/configuration-versions/:id/actions/${action}`, async (c) => {
      await manageConfigurationBackingData(c.get('ctx'), c.req.param('id'), action);
      return c.body(null, 204);
    });
  }
  return r;
}
