import type { NotificationConfiguration } from '../../domain/notifications/notification-configuration.js';
import { API_PREFIX, type ResourceObject } from '../documents.js';

/**
 * A notification configuration as HCP Terraform shows it: the token is write-only (always null),
 * `delivery-responses` holds the latest response with `code` and `successful` as strings, the
 * subscribable is its workspace or team, and `users` the users an email configuration mails.
 */
export function serializeNotificationConfiguration(nc: NotificationConfiguration): ResourceObject {
  return {
    id: nc.id,
    type: 'notification-configurations',
    attributes: {
      enabled: nc.enabled,
      name: nc.name,
      url: nc.url,
      'destination-type': nc.destinationType,
      token: null,
      triggers: nc.triggers,
      'email-addresses': nc.emailAddresses,
      'delivery-responses': nc.deliveryResponses.map((r) => ({
        url: r.url,
        body: r.body,
        code: r.code,
        headers: r.headers,
        'sent-at': r.sentAt,
        successful: String(r.successful),
      })),
      'created-at': nc.createdAt,
      'updated-at': nc.updatedAt,
    },
    relationships: {
      subscribable: { data: { id: nc.subscribable.id, type: nc.subscribable.type } },
      users: { data: nc.emailUserIds.map((id) => ({ id, type: 'users' })) },
    },
    links: { self: `${API_PREFIX}/notification-configurations/${nc.id}` },
  };
}
