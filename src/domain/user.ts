import * as v from 'valibot';
import { bool, checkAttributes, opt, str } from './attributes.js';
import { Problems } from './errors.js';

export interface User {
  id: string;
  username: string;
  email: string;
  isSiteAdmin: boolean;
  createdAt: string;
}

export interface UserInput {
  username: string;
  email: string;
  isSiteAdmin: boolean;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const schema = v.looseObject({ username: opt(str()), email: opt(str()), 'is-site-admin': opt(bool()) });

export function parseUserAttributes(attributes: unknown): UserInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  if (!a.username) problems.add('/data/attributes/username', "Username can't be blank");
  else if (!USERNAME.test(a.username) || a.username.length > 64) {
    problems.add(
      '/data/attributes/username',
      'Username may only contain letters, numbers, ".", "-" and "_" and must start with a letter or number',
    );
  }
  if (!a.email) problems.add('/data/attributes/email', "Email can't be blank");
  else if (!/^[^\s@]+@[^\s@]+$/.test(a.email)) problems.add('/data/attributes/email', 'Email is invalid');
  problems.throwIfAny();
  return { username: a.username!, email: a.email!, isSiteAdmin: a['is-site-admin'] ?? false };
}
