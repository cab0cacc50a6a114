import { microsoftTeamsPayload, slackPayload, emailMessage } from '../../domain/notifications/chat-payloads.js';
import type { DeliveryResponse } from '../../domain/notifications/notification-configuration.js';
import { genericPayload, notificationSignature, type NotificationFacts } from '../../domain/notifications/payloads.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  type NotificationDeliveryOptions,
} from './delivery-settings.js';
import { defaultFrom, sendEmail } from './email-sender.js';
import { failedResponse, postNotification } from './webhook-sender.js';

/**
 * One delivery of `facts` to a configuration, in its destination's form: a generic POST (signed
 * with its token when it has one), Slack's or Teams' message, or an email to its recipients. The
 * outcome is what `delivery-responses` keeps, and whether another try may do better. Used by the
 * outbox's deliverer and, in the request, by verifications.
 */

export interface DeliveryTarget {
  id: string;
  name: string;
  destinationType: string;
  url: string | null;
  token: string | null;
  /** The email addresses it mails (email only), already resolved. */
  recipients: string[];
}

export interface DeliveryOutcome {
  response: DeliveryResponse;
  retryable: boolean;
  /** Not attempted at all (email without an SMTP server, or nobody to mail). */
  skipped: boolean;
}

export const NO_SMTP =
  'skipped: no SMTP server is configured for email notifications (berth serve --smtp-url, or BERTH_SMTP_URL)';

export async function deliverTo(
  target: DeliveryTarget,
  facts: NotificationFacts,
  options: NotificationDeliveryOptions,
  allowPrivate: boolean,
  now: Date,
): Promise<DeliveryOutcome> {
  const sentAt = now.toISOString();
  const links = { baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '') };
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const about = { id: target.id, name: target.name };
  if (target.destinationType === 'email') {
    const to = target.recipients;
    const mailto = `mailto:${to.join(',')}`;
    const skip = (body: string): DeliveryOutcome => ({
      response: failedResponse(mailto, sentAt, body),
      retryable: false,
      skipped: true,
    });
    if (!options.smtpUrl) return skip(NO_SMTP);
    if (to.length === 0) return skip('skipped: the configuration has no recipients');
    const message = emailMessage(about, facts, links);
    const sent = await sendEmail(
      options.smtpUrl,
      { from: options.emailFrom ?? defaultFrom(options.smtpUrl), to, ...message },
      timeoutMs,
    );
    return {
      response: { url: mailto, body: sent.detail, code: '', headers: {}, sentAt, successful: sent.ok },
      retryable: sent.retryable,
      skipped: false,
    };
  }
  const url = target.url!;
  const payload =
    target.destinationType === 'slack'
      ? slackPayload(about, facts, links)
      : target.destinationType === 'microsoft-teams'
        ? microsoftTeamsPayload(about, facts, links)
        : genericPayload(about, facts, links);
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {};
  if (target.destinationType === 'generic' && target.token)
    headers['x-tfe-notification-signature'] = notificationSignature(target.token, body);
  const outcome = await postNotification(url, body, headers, {
    timeoutMs,
    sentAt,
    allowPrivate,
    resolve: options.resolve,
  });
  return { ...outcome, skipped: false };
}
