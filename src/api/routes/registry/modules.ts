import { Hono, type Context } from 'hono';
import { badRequest, notFound } from '../../../domain/common/errors.js';
import {
  parseModuleCreate,
  parseModuleUpdate,
  parseVersionCreate,
  REGISTRY_NAMES,
  type ModuleAddress,
  type RegistryName,
} from '../../../domain/registry/module.js';
import {
  createModule,
  deleteModules,
  getModule,
  getModuleById,
  listModules,
  updateModule,
} from '../../../services/registry/modules.js';
import {
  createModuleVersion,
  deleteModuleVersion,
  getModuleVersion,
} from '../../../services/registry/module-versions.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeModule, serializeModuleVersion } from './module-documents.js';

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const BASE = '/organizations/:org/registry-modules/:registry/:namespace/:name';

/** The registry name of a path: `private` or `public`, else a 404 (no such path). */
function registryOf(c: Context<AppEnv>): RegistryName {
  const r = c.req.param('registry') ?? '';
  if (!(REGISTRY_NAMES as readonly string[]).includes(r))
    throw notFound(`no registry ${r}: the registry name is "private" or "public"`);
  return r as RegistryName;
}

function addressOf(c: Context<AppEnv>): ModuleAddress {
  // (`provider` is '' on the delete by name, whose path has none; that delete drops it.)
  return {
    organization: c.req.param('org')!,
    registryName: registryOf(c),
    namespace: c.req.param('namespace')!,
    name: c.req.param('name')!,
    provider: c.req.param('provider') ?? '',
  };
}

/** go-tfe's legacy paths (`registry-modules/:org/:name/:provider/...`) name private modules of `:org`. */
function legacyAddress(c: Context<AppEnv>): ModuleAddress {
  const org = c.req.param('org')!;
  return {
    organization: org,
    registryName: 'private',
    namespace: org,
    name: c.req.param('name')!,
    provider: c.req.param('provider')!,
  };
}

/**
 * HCP's Private Registry Modules API (token-authenticated): modules by name and provider (no VCS),
 * their versions, and the deletes by name, provider and version, with go-tfe's legacy paths.
 */
export function registryModuleRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/organizations/:org/registry-modules', async (c) => {
    const org = c.req.param('org');
    const input = parseModuleCreate((await readResource(c, 'registry-modules')).attributes, org);
    return sendResource(c, serializeModule(await createModule(c.get('ctx'), org, input)), { status: 201 });
  });
  r.get('/organizations/:org/registry-modules', async (c) =>
    sendCollection(
      c,
      await listModules(c.get('ctx'), c.req.param('org'), pageOf(c), {
        q: queryParam(c, 'q'),
        registryName: queryParam(c, 'filter[registry_name]'),
        provider: queryParam(c, 'filter[provider]'),
        organizationName: queryParam(c, 'filter[organization_name]'),
      }),
      serializeModule,
    ),
  );
  r.get('/registry-modules/:id', async (c) =>
    sendResource(c, serializeModule(await getModuleById(c.get('ctx'), c.req.param('id')))),
  );
  r.get(`${BASE}/:provider`, async (c) =>
    sendResource(c, serializeModule(await getModule(c.get('ctx'), addressOf(c)))),
  );
  r.patch(`${BASE}/:provider`, async (c) => {
    const input = parseModuleUpdate((await readResource(c, 'registry-modules')).attributes);
    return sendResource(c, serializeModule(await updateModule(c.get('ctx'), addressOf(c), input)));
  });

  // Versions: HCP's path (private modules) and go-tfe's CreateVersion path.
  const createVersion = async (c: Context<AppEnv>, address: ModuleAddress) => {
    const version = parseVersionCreate((await readResource(c, 'registry-module-versions')).attributes);
    const v = await createModuleVersion(c.get('ctx'), address, version);
    return sendResource(c, serializeModuleVersion(v, origin(c)), { status: 201 });
  };
  r.post(`${BASE}/:provider/versions`, (c) => createVersion(c, addressOf(c)));
  // go-tfe's ReadVersion: `.../version?module_version=1.2.3`.
  r.get(`${BASE}/:provider/version`, async (c) => {
    const version = queryParam(c, 'module_version');
    if (!version) throw badRequest('give the version as ?module_version=');
    return sendResource(
      c,
      serializeModuleVersion(await getModuleVersion(c.get('ctx'), addressOf(c), version), origin(c)),
    );
  });

  // Deletes: a version, a provider (with its versions), a name (every provider).
  r.delete(`${BASE}/:provider/:version`, async (c) => {
    await deleteModuleVersion(c.get('ctx'), addressOf(c), c.req.param('version'));
    return c.body(null, 204);
  });
  r.delete(`${BASE}/:provider`, async (c) => {
    await deleteModules(c.get('ctx'), addressOf(c));
    return c.body(null, 204);
  });
  r.delete(BASE, async (c) => {
    const { provider: _provider, ...address } = addressOf(c);
    await deleteModules(c.get('ctx'), address);
    return c.body(null, 204);
  });

  // go-tfe's legacy deletes (no body; any is ignored): by name, provider, version.
  r.post('/registry-modules/actions/delete/:org/:name', async (c) => {
    await readJson(c, { optional: true });
    const org = c.req.param('org');
    await deleteModules(c.get('ctx'), {
      organization: org,
      registryName: 'private',
      namespace: org,
      name: c.req.param('name'),
    });
    return c.body(null, 204);
  });
  r.post('/registry-modules/actions/delete/:org/:name/:provider', async (c) => {
    await readJson(c, { optional: true });
    await deleteModules(c.get('ctx'), legacyAddress(c));
    return c.body(null, 204);
  });
  r.post('/registry-modules/actions/delete/:org/:name/:provider/:version', async (c) => {
    await readJson(c, { optional: true });
    await deleteModuleVersion(c.get('ctx'), legacyAddress(c), c.req.param('version'));
    return c.body(null, 204);
  });
  r.post('/registry-modules/:org/:name/:provider/versions', (c) => createVersion(c, legacyAddress(c)));
  return r;
}
