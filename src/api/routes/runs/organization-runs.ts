import { Hono } from 'hono';
import { listOrganizationRuns } from '../../../services/runs/organization-runs.js';
import { sendCollection } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, rejectUnknownFilters } from '../../query.js';
import { RUN_INCLUDES } from './run-includes.js';
import { runListDocument, runListIncluded } from './run-list-includes.js';
import { ORGANIZATION_RUN_FILTERS, organizationRunFilterOf } from './run-list-query.js';

/**
 * `GET /organizations/:name/runs` (go-tfe's Runs.ListForOrganization): the runs of the
 * organization's workspaces that the caller may read, newest first, paged, with HCP's filters.
 */
export function organizationRunRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/organizations/:name/runs', async (c) => {
    // Checked before anything is read: a typo'd filter would answer with every run.
    rejectUnknownFilters(c, ORGANIZATION_RUN_FILTERS);
    const include = includesOf(c, RUN_INCLUDES);
    const paged = await listOrganizationRuns(c.get('ctx'), c.req.param('name'), pageOf(c), organizationRunFilterOf(c));
    const { included, relationships } = await runListIncluded(c, paged.items, include);
    return sendCollection(c, paged, (run) => runListDocument(run, relationships), included);
  });
  return r;
}
