import type { RegistryName } from './provider-names.js';

/** The resources of HCP's Private Registry Providers, Provider Versions and Platforms and GPG Keys APIs. */

export interface GpgKey {
  id: string;
  /** The organization's name. */
  namespace: string;
  keyId: string;
  asciiArmor: string;
  trustSignature: string;
  source: string;
  sourceUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RegistryProvider {
  id: string;
  organizationName: string;
  registryName: RegistryName;
  namespace: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  canDelete: boolean;
  versionIds: string[];
}

export interface ProviderVersion {
  id: string;
  providerId: string;
  version: string;
  keyId: string;
  protocols: string[];
  shasumsUploaded: boolean;
  shasumsSigUploaded: boolean;
  createdAt: string;
  updatedAt: string;
  canDelete: boolean;
  canUploadAsset: boolean;
  platformIds: string[];
  /** The provider's address, for links. */
  address: ProviderAddress;
}

export interface ProviderPlatform {
  id: string;
  versionId: string;
  os: string;
  arch: string;
  shasum: string;
  filename: string;
  binaryUploaded: boolean;
  /** The uploaded archive (internal: its signed download link names it). */
  archiveId: string | null;
  canDelete: boolean;
  canUploadAsset: boolean;
  address: ProviderAddress & { version: string };
}

/** How the API's paths name a provider: `organizations/:org/registry-providers/:registry/:namespace/:name`. */
export interface ProviderAddress {
  organization: string;
  registryName: RegistryName;
  namespace: string;
  name: string;
}

/** The query strings of the signed links a version or platform offers now (null: none). */
export interface ProviderLinks {
  shasumsUpload?: string;
  shasumsSigUpload?: string;
  shasumsDownload?: string;
  shasumsSigDownload?: string;
  binaryUpload?: string;
  binaryDownload?: { archiveId: string; query: string };
}
