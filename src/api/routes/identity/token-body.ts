import { requireLength, TEXT_LIMITS } from '../../../domain/common/limits.js';

/** `data.attributes.description` of a token-creating body, if any (422 when longer than the limit). */
export function descriptionOf(body: Record<string, unknown> | null): string | null {
  const data = body?.data as { attributes?: { description?: unknown } } | undefined;
  const d = data?.attributes?.description;
  if (typeof d !== 'string') return null;
  requireLength('/data/attributes/description', 'Description', d, TEXT_LIMITS.tokenDescription);
  return d;
}
