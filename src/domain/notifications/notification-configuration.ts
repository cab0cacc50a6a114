/**
 * Notification configurations (HCP Terraform's, issue 45): where a workspace's (or a team's)
 * events are sent, in which form, on which triggers. The services store and deliver them
 * (services/notifications/); what is sent is payloads.ts and chat-payloads.ts.
 */

export const DESTINATION_TYPES = ['generic', 'email', 'slack', 'microsoft-teams'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** The destinations that POST to a URL (the others mail). */
export const URL_DESTINATIONS: readonly DestinationType[] = ['generic', 'slack', 'microsoft-teams'];

/** The triggers of a workspace's configurations (HCP's list, as go-tfe names them). */
export const WORKSPACE_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
  'assessment:drifted',
  'assessment:failed',
  'assessment:check_failure',
  'workspace:auto_destroy_reminder',
  'workspace:auto_destroy_run_results',
] as const;
export type WorkspaceTrigger = (typeof WORKSPACE_TRIGGERS)[number];

/** A team's configurations have HCP's one trigger; berth has no change requests, so they never fire. */
export const TEAM_TRIGGERS = ['change_request:created'] as const;

/** Configurations one workspace (or team) may have: HCP's 20. */
export const MAX_CONFIGURATIONS = 20;
/** Email addresses (self-hosted edition) and users of one configuration. */
export const MAX_EMAIL_RECIPIENTS = 100;
/** The longest name and URL. */
export const NAME_LIMIT = 255;
export const URL_LIMIT = 2048;

export type Subscribable = { type: 'workspaces'; id: string } | { type: 'teams'; id: string };

/** The response to one delivery, as `delivery-responses` shows it (HCP: `code` and `successful` are strings). */
export interface DeliveryResponse {
  url: string;
  body: string;
  code: string;
  headers: Record<string, string[]>;
  sentAt: string;
  successful: boolean;
}

export interface NotificationConfiguration {
  id: string;
  name: string;
  destinationType: DestinationType;
  enabled: boolean;
  url: string | null;
  triggers: string[];
  emailAddresses: string[];
  emailUserIds: string[];
  deliveryResponses: DeliveryResponse[];
  subscribable: Subscribable;
  createdAt: string;
  updatedAt: string;
}

/** What a create or an update gives; absent members keep their value (an update's `users`: see the parser). */
export interface NotificationConfigurationInput {
  destinationType?: DestinationType;
  enabled?: boolean;
  name?: string;
  token?: string | null;
  triggers?: string[];
  url?: string | null;
  emailAddresses?: string[];
  emailUserIds?: string[];
}

/** The settings a configuration ends up with, checked together by `shapeProblems`. */
export interface ConfigurationShape {
  destinationType: DestinationType;
  url: string | null;
  token: string | null;
  emailAddresses: string[];
  emailUserIds: string[];
}

/**
 * What a configuration's destination forbids or needs, in the tfe provider's words (its schema
 * checks say the same before it calls the API): a URL for the destinations that POST, none for
 * email; a token for generic only; email addresses and users for email only. Pointers name the
 * member at fault.
 */
export function shapeProblems(s: ConfigurationShape): { pointer: string; detail: string }[] {
  const type = s.destinationType;
  const out: { pointer: string; detail: string }[] = [];
  const posts = URL_DESTINATIONS.includes(type);
  if (posts && !s.url)
    out.push({ pointer: '/data/attributes/url', detail: `URL is required with destination type of ${type}` });
  if (!posts && s.url)
    out.push({ pointer: '/data/attributes/url', detail: `URL cannot be set with destination type of ${type}` });
  if (type !== 'generic' && s.token)
    out.push({ pointer: '/data/attributes/token', detail: `token cannot be set with destination type of ${type}` });
  if (type !== 'email' && s.emailAddresses.length > 0)
    out.push({
      pointer: '/data/attributes/email-addresses',
      detail: `email addresses cannot be set with destination type of ${type}`,
    });
  if (type !== 'email' && s.emailUserIds.length > 0)
    out.push({
      pointer: '/data/relationships/users',
      detail: `email user IDs cannot be set with destination type of ${type}`,
    });
  return out;
}

/**
 * A notification URL: http or https only, with a host, no credentials in it. Null when fine,
 * else why not.
 */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'URL is not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'URL must be an http or https URL';
  if (parsed.hostname === '') return 'URL must name a host';
  if (parsed.username !== '' || parsed.password !== '') return 'URL must not carry a user name or password';
  return null;
}
