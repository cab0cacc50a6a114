import type {
  GpgKey,
  ProviderLinks,
  ProviderPlatform,
  ProviderVersion,
  RegistryProvider,
} from '../../../domain/registry/provider-registry.js';
import { API_PREFIX, type ResourceObject } from '../../documents.js';

/** The JSON:API resources of the provider registry, as HCP's (go-tfe's registry_provider*.go, gpg_key.go). */

const providerPath = (a: { organization: string; registryName: string; namespace: string; name: string }) =>
  `${API_PREFIX}/organizations/${encodeURIComponent(a.organization)}/registry-providers/${a.registryName}/${encodeURIComponent(a.namespace)}/${a.name}`;

export function serializeProvider(p: RegistryProvider): ResourceObject {
  return {
    id: p.id,
    type: 'registry-providers',
    attributes: {
      name: p.name,
      namespace: p.namespace,
      'registry-name': p.registryName,
      'created-at': p.createdAt,
      'updated-at': p.updatedAt,
      permissions: { 'can-delete': p.canDelete },
    },
    relationships: {
      organization: { data: { type: 'organizations', id: p.organizationName } },
      'registry-provider-versions': { data: p.versionIds.map((id) => ({ type: 'registry-provider-versions', id })) },
    },
    links: { self: providerPath({ ...p, organization: p.organizationName }) },
  };
}

/** Absolute signed file links of a version or platform. */
function fileLinks(
  origin: string,
  kind: 'version' | 'platform',
  id: string,
  links: ProviderLinks,
): Record<string, string> {
  const files = `${origin}/api/registry/files`;
  const out: Record<string, string> = {};
  if (links.shasumsUpload) out['shasums-upload'] = `${files}/provider-versions/${id}/shasums?${links.shasumsUpload}`;
  if (links.shasumsSigUpload)
    out['shasums-sig-upload'] = `${files}/provider-versions/${id}/shasums-sig?${links.shasumsSigUpload}`;
  if (links.shasumsDownload)
    out['shasums-download'] = `${files}/provider-versions/${id}/shasums?${links.shasumsDownload}`;
  if (links.shasumsSigDownload)
    out['shasums-sig-download'] = `${files}/provider-versions/${id}/shasums-sig?${links.shasumsSigDownload}`;
  if (kind === 'platform' && links.binaryUpload)
    out['provider-binary-upload'] = `${files}/provider-platforms/${id}/binary?${links.binaryUpload}`;
  return out;
}

export function serializeVersion(v: ProviderVersion, origin: string, links: ProviderLinks): ResourceObject {
  const self = `${providerPath(v.address)}/versions/${encodeURIComponent(v.version)}`;
  return {
    id: v.id,
    type: 'registry-provider-versions',
    attributes: {
      version: v.version,
      'created-at': v.createdAt,
      'updated-at': v.updatedAt,
      'key-id': v.keyId,
      protocols: v.protocols,
      permissions: { 'can-delete': v.canDelete, 'can-upload-asset': v.canUploadAsset },
      'shasums-uploaded': v.shasumsUploaded,
      'shasums-sig-uploaded': v.shasumsSigUploaded,
    },
    relationships: {
      'registry-provider': { data: { type: 'registry-providers', id: v.providerId } },
      platforms: {
        data: v.platformIds.map((id) => ({ type: 'registry-provider-platforms', id })),
        links: { related: `${self}/platforms` },
      },
    },
    links: { self, ...fileLinks(origin, 'version', v.id, links) },
  };
}

export function serializePlatform(p: ProviderPlatform, origin: string, links: ProviderLinks): ResourceObject {
  const self = `${providerPath(p.address)}/versions/${encodeURIComponent(p.address.version)}/platforms/${p.os}/${p.arch}`;
  const out: Record<string, string> = { self, ...fileLinks(origin, 'platform', p.id, links) };
  if (links.binaryDownload)
    out['provider-binary-download'] =
      `${origin}/api/registry/files/archives/${links.binaryDownload.archiveId}/${encodeURIComponent(p.filename)}?${links.binaryDownload.query}`;
  return {
    id: p.id,
    type: 'registry-provider-platforms',
    attributes: {
      os: p.os,
      arch: p.arch,
      filename: p.filename,
      shasum: p.shasum,
      permissions: { 'can-delete': p.canDelete, 'can-upload-asset': p.canUploadAsset },
      'provider-binary-uploaded': p.binaryUploaded,
    },
    relationships: { 'registry-provider-version': { data: { type: 'registry-provider-versions', id: p.versionId } } },
    links: out,
  };
}

export function serializeGpgKey(k: GpgKey): ResourceObject {
  return {
    id: k.id,
    type: 'gpg-keys',
    attributes: {
      'ascii-armor': k.asciiArmor,
      'created-at': k.createdAt,
      'key-id': k.keyId,
      namespace: k.namespace,
      source: k.source,
      'source-url': k.sourceUrl,
      'trust-signature': k.trustSignature,
      'updated-at': k.updatedAt,
    },
    links: { self: `/api/registry/private/v2/gpg-keys/${encodeURIComponent(k.namespace)}/${k.keyId}` },
  };
}
