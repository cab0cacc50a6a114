import * as v from 'valibot';
import { bool, checkAttributes, nullable, oneOf, opt, str, text } from '../common/attributes.js';
import { Problems } from '../common/errors.js';
import { TEXT_LIMITS } from '../common/limits.js';
import { toManyIds } from '../common/relationships.js';
import {
  DESTINATION_TYPES,
  MAX_EMAIL_RECIPIENTS,
  NAME_LIMIT,
  URL_LIMIT,
  type NotificationConfigurationInput,
} from './notification-configuration.js';

/**
 * Reads the body of a create or an update of a notification configuration: its attributes
 * (unknown ones ignored, as go-tfe sends a few more) and its `users` relationship. Triggers are
 * checked against the subscribable's list by the service (a workspace's and a team's differ);
 * here they are strings, each once (the provider may send one several times).
 */
const list = (max: number, item: v.GenericSchema<unknown, string>) =>
  v.pipe(
    v.array(item, 'must be an array of strings'),
    v.check((a) => a.length <= max, `must have at most ${max} entries`),
  );

const schema = v.looseObject({
  'destination-type': opt(oneOf(DESTINATION_TYPES)),
  enabled: nullable(bool()),
  name: nullable(text(NAME_LIMIT)),
  token: nullable(text(TEXT_LIMITS.reference)),
  triggers: nullable(list(50, str())),
  url: nullable(text(URL_LIMIT)),
  'email-addresses': nullable(list(MAX_EMAIL_RECIPIENTS, text(TEXT_LIMITS.email))),
});

export function parseNotificationConfigurationInput(
  attributes: unknown,
  relationships: Record<string, unknown>,
  mode: 'create' | 'update',
): NotificationConfigurationInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  const out: NotificationConfigurationInput = {};
  if (a['destination-type'] !== undefined) out.destinationType = a['destination-type'];
  else if (mode === 'create') problems.add('/data/attributes/destination-type', "Destination type can't be blank");
  if (a.enabled !== undefined && a.enabled !== null) out.enabled = a.enabled;
  if (a.name !== undefined && a.name !== null) {
    if (a.name.trim() === '') problems.add('/data/attributes/name', "Name can't be blank");
    else out.name = a.name.trim();
  } else if (mode === 'create') problems.add('/data/attributes/name', "Name can't be blank");
  // An empty token is no token (go-tfe sends "" for an unset string pointer in some clients).
  if (a.token !== undefined) out.token = a.token === null || a.token === '' ? null : a.token;
  if (a.triggers !== undefined) out.triggers = [...new Set(a.triggers ?? [])];
  if (a.url !== undefined) out.url = a.url === null || a.url.trim() === '' ? null : a.url.trim();
  if (a['email-addresses'] !== undefined) {
    const addresses = [...new Set((a['email-addresses'] ?? []).map((e) => e.trim()).filter((e) => e !== ''))];
    addresses.forEach((e, i) => {
      if (!/^[^\s@]+@[^\s@]+$/.test(e))
        problems.add(`/data/attributes/email-addresses/${i}`, `${e} is not an email address`);
    });
    out.emailAddresses = addresses;
  }
  const users = toManyIds(relationships, 'users', 'users', problems);
  if (users !== undefined) {
    if (users.length > MAX_EMAIL_RECIPIENTS)
      problems.add('/data/relationships/users', `users must have at most ${MAX_EMAIL_RECIPIENTS} entries`);
    out.emailUserIds = users;
  }
  problems.throwIfAny();
  return out;
}
