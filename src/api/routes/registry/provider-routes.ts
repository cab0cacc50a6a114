import { Hono, type Context } from 'hono';
import { badRequest } from '../../../domain/common/errors.js';
import { registryNameOf } from '../../../domain/registry/provider-names.js';
import type { ProviderAddress } from '../../../domain/registry/provider-registry.js';
import { providerSigner } from '../../../services/registry/provider-access.js';
import * as platforms from '../../../services/registry/provider-platforms.js';
import { platformLinks, versionLinks } from '../../../services/registry/provider-uploads.js';
import * as versions from '../../../services/registry/provider-versions.js';
import * as providers from '../../../services/registry/registry-providers.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam } from '../../query.js';
import { serializePlatform, serializeProvider, serializeVersion } from './provider-serializers.js';

/**
 * HCP's Private Registry Providers and Provider Versions and Platforms APIs under /api/v2
 * (token-authenticated, audited): `/organizations/:org/registry-providers[/:registry/:namespace/:name
 * [/versions[/:version[/platforms[/:os/:arch]]]]]`.
 */

const BASE = '/organizations/:org/registry-providers/:registry/:namespace/:name';

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

function addressOf(c: Context<AppEnv>): ProviderAddress {
  return {
    organization: c.req.param('org')!,
    registryName: registryNameOf(c.req.param('registry'), '/registry-name'),
    namespace: c.req.param('namespace')!,
    name: c.req.param('name')!,
  };
}

const versionAddress = (c: Context<AppEnv>) => ({ ...addressOf(c), version: c.req.param('version')! });

export function providerRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/organizations/:org/registry-providers', async (c) => {
    const registry = queryParam(c, 'filter[registry_name]');
    const orgFilter = queryParam(c, 'filter[organization_name]');
    if (orgFilter && orgFilter !== c.req.param('org'))
      throw badRequest('filter[organization_name] must name the organization of the path', {
        parameter: 'filter[organization_name]',
      });
    const include = includesOf(c, ['registry_provider_versions']);
    const paged = await providers.listProviders(
      c.get('ctx'),
      c.req.param('org'),
      {
        registryName: registry ? registryNameOf(registry, '/filter[registry_name]') : undefined,
        search: queryParam(c, 'q'),
      },
      pageOf(c),
    );
    const included = [];
    if (include.has('registry_provider_versions') && paged.items.length > 0) {
      const sign = await providerSigner(c.get('ctx'));
      for (const p of paged.items)
        if (p.registryName === 'private' && p.versionIds.length > 0) {
          const list = await versions.listVersions(
            c.get('ctx'),
            { organization: p.organizationName, ...p },
            { number: 1, size: 100 },
          );
          for (const v of list.items) included.push(serializeVersion(v, origin(c), versionLinks(sign, v)));
        }
    }
    return sendCollection(c, paged, serializeProvider, included);
  });
  r.post('/organizations/:org/registry-providers', async (c) => {
    const input = providers.parseProviderInput((await readResource(c, 'registry-providers')).attributes);
    return sendResource(c, serializeProvider(await providers.createProvider(c.get('ctx'), c.req.param('org'), input)), {
      status: 201,
    });
  });
  r.get(BASE, async (c) => sendResource(c, serializeProvider(await providers.getProvider(c.get('ctx'), addressOf(c)))));
  r.delete(BASE, async (c) => {
    await providers.deleteProvider(c.get('ctx'), addressOf(c));
    return c.body(null, 204);
  });

  r.get(`${BASE}/versions`, async (c) => {
    const sign = await providerSigner(c.get('ctx'));
    const paged = await versions.listVersions(c.get('ctx'), addressOf(c), pageOf(c));
    return sendCollection(c, paged, (v) => serializeVersion(v, origin(c), versionLinks(sign, v)));
  });
  r.post(`${BASE}/versions`, async (c) => {
    const input = versions.parseVersionInput(
      (await readResource(c, 'registry-provider-versions', { untyped: true })).attributes,
    );
    const sign = await providerSigner(c.get('ctx'));
    const v = await versions.createVersion(c.get('ctx'), addressOf(c), input);
    return sendResource(c, serializeVersion(v, origin(c), versionLinks(sign, v)), { status: 201 });
  });
  r.get(`${BASE}/versions/:version`, async (c) => {
    const sign = await providerSigner(c.get('ctx'));
    const v = await versions.getVersion(c.get('ctx'), addressOf(c), c.req.param('version'));
    return sendResource(c, serializeVersion(v, origin(c), versionLinks(sign, v)));
  });
  r.delete(`${BASE}/versions/:version`, async (c) => {
    await versions.deleteVersion(c.get('ctx'), addressOf(c), c.req.param('version'));
    return c.body(null, 204);
  });

  r.get(`${BASE}/versions/:version/platforms`, async (c) => {
    const sign = await providerSigner(c.get('ctx'));
    const paged = await platforms.listPlatforms(c.get('ctx'), versionAddress(c), pageOf(c));
    return sendCollection(c, paged, (p) => serializePlatform(p, origin(c), platformLinks(sign, p)));
  });
  r.post(`${BASE}/versions/:version/platforms`, async (c) => {
    const input = platforms.parsePlatformInput(
      (await readResource(c, 'registry-provider-platforms', { untyped: true })).attributes,
    );
    const sign = await providerSigner(c.get('ctx'));
    const p = await platforms.createPlatform(c.get('ctx'), versionAddress(c), input);
    return sendResource(c, serializePlatform(p, origin(c), platformLinks(sign, p)), { status: 201 });
  });
  r.get(`${BASE}/versions/:version/platforms/:os/:arch`, async (c) => {
    const sign = await providerSigner(c.get('ctx'));
    const p = await platforms.getPlatform(c.get('ctx'), versionAddress(c), c.req.param('os'), c.req.param('arch'));
    return sendResource(c, serializePlatform(p, origin(c), platformLinks(sign, p)));
  });
  r.delete(`${BASE}/versions/:version/platforms/:os/:arch`, async (c) => {
    await platforms.deletePlatform(c.get('ctx'), versionAddress(c), c.req.param('os'), c.req.param('arch'));
    return c.body(null, 204);
  });
  return r;
}
