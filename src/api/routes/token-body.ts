/** `data.attributes.description` of a token-creating body, if any. */
export function descriptionOf(body: Record<string, unknown> | null): string | null {
  const data = body?.data as { attributes?: { description?: unknown } } | undefined;
  const d = data?.attributes?.description;
  return typeof d === 'string' ? d : null;
}
