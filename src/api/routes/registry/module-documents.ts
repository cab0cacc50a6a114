import type { RegistryModule, RegistryModuleVersion } from '../../../domain/registry/module.js';
import { API_PREFIX, toOne, type ResourceObject } from '../../documents.js';

/** The path of a version's archive (its upload and its download, each signed for its use). */
export const moduleArchivePath = (versionId: string) =>
  `${API_PREFIX}/registry-module-versions/${versionId}/object/module.tar.gz`;

/**
 * A `registry-modules` resource, as HCP's (go-tfe's RegistryModule). berth has no VCS: no
 * `vcs-repo`, `publishing-mechanism` absent; `status` is `pending` until a version is `ok`, then
 * `setup_complete`. `permissions` say what the caller may do (delete; resync and retry are VCS's,
 * granted alike).
 */
export function serializeModule(m: RegistryModule): ResourceObject {
  const org = m.organizationName;
  return {
    id: m.id,
    type: 'registry-modules',
    attributes: {
      name: m.name,
      namespace: m.namespace,
      provider: m.provider,
      'registry-name': m.registryName,
      status: m.versions.some((v) => v.status === 'ok') ? 'setup_complete' : 'pending',
      'version-statuses': m.versions.map((v) => ({ version: v.version, status: v.status })),
      'no-code': m.noCode,
      'vcs-repo': null,
      permissions: { 'can-delete': m.canManage, 'can-resync': m.canManage, 'can-retry': m.canManage },
      'created-at': m.createdAt,
      'updated-at': m.updatedAt,
    },
    relationships: {
      organization: toOne('organizations', org, `${API_PREFIX}/organizations/${encodeURIComponent(org)}`),
    },
    links: { self: `${API_PREFIX}/registry-modules/${m.id}` },
  };
}

/**
 * A `registry-module-versions` resource; `origin` makes the upload link absolute, which only the
 * create's answer carries (`links.upload`, as HCP: go-tfe's Upload PUTs the archive there).
 */
export function serializeModuleVersion(v: RegistryModuleVersion, origin: string): ResourceObject {
  const doc: ResourceObject = {
    id: v.id,
    type: 'registry-module-versions',
    attributes: {
      source: 'tfe-api',
      status: v.status,
      version: v.version,
      size: v.size,
      'created-at': v.createdAt,
      'updated-at': v.updatedAt,
    },
    relationships: {
      'registry-module': toOne('registry-modules', v.moduleId, `${API_PREFIX}/registry-modules/${v.moduleId}`),
    },
  };
  if (v.uploadQuery) doc.links = { upload: `${origin}${moduleArchivePath(v.id)}?${v.uploadQuery}` };
  return doc;
}
