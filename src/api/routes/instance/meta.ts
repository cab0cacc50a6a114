import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { requireDatabase } from '../../../services/instance/health.js';
import type { DB } from '../../../store/schema.js';
import { MODULES_V1_PATH } from '../registry/module-protocol.js';
import { PROVIDERS_V1_PATH } from '../registry/provider-protocol-routes.js';
import { TERRAFORM_LOGIN_CLIENT, TERRAFORM_LOGIN_PORTS } from '../../../domain/identity/terraform-login.js';

export const API_VERSION = '2.6';
export const APP_NAME = 'berth';
export const BERTH_VERSION = '0.1.0';

/** `terraform login`'s OAuth client configuration (the login.v1 service; docs/api.md). */
const LOGIN_V1 = {
  client: TERRAFORM_LOGIN_CLIENT,
  grant_types: ['authz_code'],
  authz: '/terraform-login/authorize',
  token: '/api/v2/terraform-login/token',
  ports: TERRAFORM_LOGIN_PORTS,
};

/**
 * Ping (read by go-tfe at start-up) and service discovery (read by Terraform and its provider).
 * Ping answers 503 while the database does not (docs/api.md, "Limits of serve").
 */
export function metaRoutes(db: Kysely<DB>): { root: Hono; v2: Hono } {
  const root = new Hono();
  root.get('/.well-known/terraform.json', (c) =>
    c.json({
      'tfe.v2': '/api/v2/',
      'tfe.v2.1': '/api/v2/',
      'tfe.v2.2': '/api/v2/',
      'login.v1': LOGIN_V1,
      // The module registry protocol (routes/registry/module-protocol.ts).
      'modules.v1': MODULES_V1_PATH,
      // The provider registry protocol (routes/registry/provider-protocol-routes.ts).
      'providers.v1': PROVIDERS_V1_PATH,
    }),
  );
  const v2 = new Hono();
  v2.get('/ping', async (c) => {
    await requireDatabase(db);
    c.header('TFP-API-Version', API_VERSION);
    c.header('TFP-AppName', APP_NAME);
    // No X-TFE-Version: go-tfe's RemoteTFEVersion() is then empty, and the Terraform CLI, facing
    // a self-hosted server of unknown release, prints a run's logs as they are (berth's are plain
    // text) instead of rendering structured run output (docs/api.md, "Structured run output").
    c.header('X-Berth-Version', BERTH_VERSION);
    return c.body(null, 204);
  });
  return { root, v2 };
}
