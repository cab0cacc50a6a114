import type { BerthClient } from './client.js';
import type { Resource } from './jsonapi.js';

const enc = encodeURIComponent;

/** A `notification-configurations` resource's attributes (HCP's Notification Configurations API). */
export interface NotificationConfigurationAttributes {
  name: string;
  enabled: boolean;
  'destination-type': string;
  url: string | null;
  triggers: string[];
  'email-addresses': string[];
  'delivery-responses': { url: string; code: string; body: string; 'sent-at': string; successful: string }[];
  'created-at': string;
  'updated-at': string;
  [key: string]: unknown;
}

export type NotificationConfiguration = Resource<NotificationConfigurationAttributes>;

/** What a create or an update sends: attributes as the API names them, and the users to mail. */
export interface NotificationConfigurationChanges {
  attributes: Record<string, unknown>;
  userIds?: string[];
}

const body = (c: NotificationConfigurationChanges) => ({
  data: {
    type: 'notification-configurations',
    attributes: c.attributes,
    ...(c.userIds ? { relationships: { users: { data: c.userIds.map((id) => ({ type: 'users', id })) } } } : {}),
  },
});

/** A workspace's notification configurations. */
export class NotificationConfigurationsClient {
  constructor(private readonly client: BerthClient) {}

  list(workspaceId: string): Promise<NotificationConfiguration[]> {
    return this.client.listAll<NotificationConfigurationAttributes>(
      `/workspaces/${enc(workspaceId)}/notification-configurations`,
    );
  }

  async get(id: string): Promise<NotificationConfiguration> {
    return (await this.client.get<NotificationConfigurationAttributes>(`/notification-configurations/${enc(id)}`)).data;
  }

  async create(workspaceId: string, changes: NotificationConfigurationChanges): Promise<NotificationConfiguration> {
    const res = await this.client.request<{ data: NotificationConfiguration }>(
      'POST',
      `/workspaces/${enc(workspaceId)}/notification-configurations`,
      { body: body(changes) },
    );
    return res.body!.data;
  }

  async update(id: string, changes: NotificationConfigurationChanges): Promise<NotificationConfiguration> {
    const res = await this.client.request<{ data: NotificationConfiguration }>(
      'PATCH',
      `/notification-configurations/${enc(id)}`,
      { body: body(changes) },
    );
    return res.body!.data;
  }

  async verify(id: string): Promise<NotificationConfiguration> {
    const res = await this.client.request<{ data: NotificationConfiguration }>(
      'POST',
      `/notification-configurations/${enc(id)}/actions/verify`,
    );
    return res.body!.data;
  }

  async delete(id: string): Promise<void> {
    await this.client.delete(`/notification-configurations/${enc(id)}`);
  }
}

/** The ids of the users an email configuration mails. */
export function emailUserIds(nc: NotificationConfiguration): string[] {
  const data = nc.relationships?.users?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
}
