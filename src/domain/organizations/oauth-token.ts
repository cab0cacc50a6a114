import * as v from 'valibot';
import { checkAttributes, nullable, oneOf, opt, text } from '../common/attributes.js';
import { TEXT_LIMITS as L } from '../common/limits.js';

/** The VCS providers an OAuth client can connect (HCP Terraform's `service-provider` values). */
export const SERVICE_PROVIDERS = [
  'github',
  'github_enterprise',
  'gitlab_hosted',
  'gitlab_community_edition',
  'gitlab_enterprise_edition',
  'bitbucket_hosted',
  'bitbucket_data_center',
  'ado_services',
  'ado_server',
] as const;

export interface OAuthToken {
  id: string;
  organizationName: string;
  serviceProvider: string;
  name: string | null;
  createdAt: string;
}

export interface OAuthTokenInput {
  serviceProvider: string;
  name: string | null;
}

const schema = v.looseObject({
  'service-provider': opt(oneOf(SERVICE_PROVIDERS)),
  name: nullable(text(L.oauthTokenName)),
});

export function parseOAuthTokenAttributes(attributes: unknown): OAuthTokenInput {
  const a = checkAttributes(schema, attributes);
  return { serviceProvider: a['service-provider'] ?? 'github', name: a.name ?? null };
}
