import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { inPage } from '../../store/literal-limit.js';
import type { ServiceContext } from '../context.js';
import { providerOrganization } from './provider-access.js';

/**
 * What an organization's mirror holds (`GET /organizations/:org/mirror-packages`, berth's own, for
 * `berth registry mirror list`): the packages pushed into it (mirror-push.ts), one per provider,
 * version and platform, with their hashes. The organization's own private providers, which the
 * mirror also serves (mirror-index.ts), are the registry's: `berth registry provider list`.
 */

export interface MirrorPackage {
  id: string;
  hostname: string;
  namespace: string;
  type: string;
  version: string;
  os: string;
  arch: string;
  filename: string;
  size: number;
  /** The `h1:` hashes the push gave, then the archive's `zh:`. */
  hashes: string[];
  createdAt: string;
}

export interface MirrorPackageFilter {
  hostname?: string;
  namespace?: string;
  type?: string;
  version?: string;
}

/** Ordered by provider (hostname, namespace, type), then as pushed. */
export async function listMirrorPackages(
  ctx: ServiceContext,
  organization: string,
  filter: MirrorPackageFilter,
  page: PageRequest,
): Promise<Paged<MirrorPackage>> {
  const org = await providerOrganization(ctx, organization);
  let base = ctx.db
    .selectFrom('mirror_archives')
    .innerJoin('registry_archives', 'registry_archives.id', 'mirror_archives.archive_id')
    .where('mirror_archives.organization_id', '=', org.id)
    .where('registry_archives.complete', '=', 1);
  // Terraform lowercases hostnames and types; the mirror stores them so (mirror-paths.ts).
  if (filter.hostname) base = base.where('mirror_archives.hostname', '=', filter.hostname.toLowerCase());
  if (filter.namespace) base = base.where('mirror_archives.namespace', '=', filter.namespace);
  if (filter.type) base = base.where('mirror_archives.type', '=', filter.type.toLowerCase());
  if (filter.version) base = base.where('mirror_archives.version', '=', filter.version);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'mirror_archives.id',
      'mirror_archives.hostname',
      'mirror_archives.namespace',
      'mirror_archives.type',
      'mirror_archives.version',
      'mirror_archives.os',
      'mirror_archives.arch',
      'mirror_archives.filename',
      'mirror_archives.hashes',
      'mirror_archives.created_at',
      'registry_archives.size',
      'registry_archives.sha256',
    ])
    .orderBy('mirror_archives.hostname')
    .orderBy('mirror_archives.namespace')
    .orderBy('mirror_archives.type')
    .orderBy('mirror_archives.seq')
    .$call(inPage(page))
    .execute();
  return {
    items: rows.map((r) => ({
      id: r.id,
      hostname: r.hostname,
      namespace: r.namespace,
      type: r.type,
      version: r.version,
      os: r.os,
      arch: r.arch,
      filename: r.filename,
      size: Number(r.size),
      hashes: [...(JSON.parse(r.hashes) as string[]), `zh:${r.sha256}`],
      createdAt: r.created_at,
    })),
    total: Number(n),
    page,
  };
}
