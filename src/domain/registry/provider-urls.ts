import { runUrlValid, signedRunQuery } from '../runs/run-execution.js';

/**
 * The signed URLs of the provider registry: the same HMAC-signed `expires` and `signature` as the
 * configuration uploads and run logs (domain/runs/run-execution.ts), each for one purpose and one
 * id. Terraform downloads archives, SHA256SUMS and their signature with no credentials (HCP:
 * "signed, no credentials needed"); go-tfe uploads to the `*-upload` links with none either.
 */
export const PROVIDER_URL_PURPOSES = {
  shasumsUpload: 'provider-shasums-upload',
  shasumsSigUpload: 'provider-shasums-sig-upload',
  binaryUpload: 'provider-binary-upload',
  shasumsDownload: 'provider-shasums-download',
  shasumsSigDownload: 'provider-shasums-sig-download',
  archiveDownload: 'registry-archive-download',
} as const;

export type ProviderUrlPurpose = (typeof PROVIDER_URL_PURPOSES)[keyof typeof PROVIDER_URL_PURPOSES];

/** Signs the query string (without `?`) of one registry file URL. */
export type ProviderUrlSigner = (purpose: ProviderUrlPurpose, id: string) => string;

export function providerUrlSigner(key: string, now: Date, ttlSeconds: number): ProviderUrlSigner {
  return (purpose, id) => signedRunQuery(key, purpose, id, now, ttlSeconds);
}

export function providerUrlValid(
  key: string,
  purpose: ProviderUrlPurpose,
  id: string,
  query: { expires: string | undefined; signature: string | undefined },
  now: Date,
): boolean {
  return runUrlValid(key, purpose, id, query.expires, query.signature, now);
}

/** How long a registry file URL works: ten minutes (an upload must start within it, not end). */
export const PROVIDER_URL_TTL_SECONDS = 600;
