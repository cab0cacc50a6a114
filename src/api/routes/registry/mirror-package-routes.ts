import { Hono } from 'hono';
import { listMirrorPackages, type MirrorPackage } from '../../../services/registry/mirror-packages.js';
import { sendCollection, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam, rejectUnknownFilters } from '../../query.js';

/**
 * `GET /organizations/:org/mirror-packages` (berth's own; docs/api.md): the packages pushed into
 * the organization's provider mirror, paged, `filter[hostname]`, `filter[namespace]`,
 * `filter[type]`, `filter[version]`. JSON:API forbids an attribute named `type`: the provider's is
 * `provider-type`.
 */
const FILTERS = ['hostname', 'namespace', 'type', 'version'] as const;

function serialize(p: MirrorPackage, org: string): ResourceObject {
  return {
    id: p.id,
    type: 'mirror-packages',
    attributes: {
      hostname: p.hostname,
      namespace: p.namespace,
      'provider-type': p.type,
      version: p.version,
      os: p.os,
      arch: p.arch,
      filename: p.filename,
      size: p.size,
      hashes: p.hashes,
      'created-at': p.createdAt,
    },
    relationships: { organization: { data: { type: 'organizations', id: org } } },
  };
}

export function mirrorPackageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/organizations/:org/mirror-packages', async (c) => {
    rejectUnknownFilters(
      c,
      FILTERS.map((f) => new RegExp(`^filter\\[${f}\\]$`)),
    );
    const filter = Object.fromEntries(FILTERS.map((f) => [f, queryParam(c, `filter[${f}]`)]));
    const org = c.req.param('org');
    const paged = await listMirrorPackages(c.get('ctx'), org, filter, pageOf(c));
    return sendCollection(c, paged, (p) => serialize(p, org));
  });
  return r;
}
