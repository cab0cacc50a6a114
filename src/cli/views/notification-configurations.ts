import type { NotificationConfiguration } from '../../client/notification-configurations.js';
import { emailUserIds } from '../../client/notification-configurations.js';
import { humanTime } from '../output/human-time.js';
import { renderTable } from '../output/output.js';

/** Where a configuration sends: its URL, or whom it mails. */
function destination(nc: NotificationConfiguration, usernames: Map<string, string>): string {
  if (nc.attributes['destination-type'] !== 'email') return nc.attributes.url ?? '';
  const people = [...emailUserIds(nc).map((id) => usernames.get(id) ?? id), ...nc.attributes['email-addresses']];
  return people.length === 0 ? '(nobody)' : people.join(', ');
}

/** The latest delivery: its answer and when. */
export function lastDelivery(nc: NotificationConfiguration): string {
  const r = nc.attributes['delivery-responses'][0];
  if (!r) return 'never';
  const outcome = r.successful === 'true' ? 'ok' : 'failed';
  const what = r.code ? `${outcome} (${r.code})` : `${outcome}: ${r.body.slice(0, 80)}`;
  return `${what} ${humanTime(r['sent-at'])}`;
}

export function notificationTable(list: NotificationConfiguration[], usernames: Map<string, string>): string {
  return renderTable(list, [
    { header: 'NAME', value: (nc) => nc.attributes.name },
    { header: 'TYPE', value: (nc) => nc.attributes['destination-type'] },
    { header: 'ENABLED', value: (nc) => (nc.attributes.enabled ? 'yes' : 'no') },
    { header: 'TRIGGERS', value: (nc) => nc.attributes.triggers.join(', ') || '(none)' },
    { header: 'DESTINATION', value: (nc) => destination(nc, usernames) },
    { header: 'LAST DELIVERY', value: lastDelivery },
  ]);
}

export function notificationDetail(nc: NotificationConfiguration, usernames: Map<string, string>): string {
  const a = nc.attributes;
  const lines = [
    `Name:          ${a.name}`,
    `ID:            ${nc.id}`,
    `Type:          ${a['destination-type']}`,
    `Enabled:       ${a.enabled ? 'yes' : 'no'}`,
    `Triggers:      ${a.triggers.join(', ') || '(none)'}`,
    `Destination:   ${destination(nc, usernames)}`,
    `Last delivery: ${lastDelivery(nc)}`,
    `Created:       ${humanTime(a['created-at'])}`,
  ];
  return lines.join('\n');
}
