import * as v from 'valibot';
import { bool, checkAttributes, opt, str } from '../common/attributes.js';
import { Problems } from '../common/errors.js';

export interface User {
  id: string;
  username: string;
  email: string;
  isSiteAdmin: boolean;
  createdAt: string;
}

/**
 * A user as one caller may see them: `details` (email and account settings) only for the user
 * themself and site administrators; everyone else who may see the user gets its public face
 * (username and avatar), as HCP Terraform's user objects show.
 */
export interface UserView {
  user: User;
  details: boolean;
}

export interface UserInput {
  username: string;
  email: string;
  isSiteAdmin: boolean;
}

/** What a user may change of their own account (`PATCH /account/update`). */
export interface AccountInput {
  username?: string;
  email?: string;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_USERNAME = 64;
const schema = v.looseObject({ username: opt(str()), email: opt(str()), 'is-site-admin': opt(bool()) });

export const isEmail = (s: string): boolean => EMAIL.test(s) && s.length <= 254;

function checkUsername(problems: Problems, username: string | undefined): void {
  if (!username) problems.add('/data/attributes/username', "Username can't be blank");
  else if (!USERNAME.test(username) || username.length > MAX_USERNAME) {
    problems.add(
      '/data/attributes/username',
      'Username may only contain letters, numbers, ".", "-" and "_" and must start with a letter or number',
    );
  }
}

function checkEmail(problems: Problems, email: string | undefined): void {
  if (!email) problems.add('/data/attributes/email', "Email can't be blank");
  else if (!isEmail(email)) problems.add('/data/attributes/email', 'Email is invalid');
}

export function parseUserAttributes(attributes: unknown): UserInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  checkUsername(problems, a.username);
  checkEmail(problems, a.email);
  problems.throwIfAny();
  return { username: a.username!, email: a.email!, isSiteAdmin: a['is-site-admin'] ?? false };
}

/** `username` and `email`, each optional; `is-site-admin` cannot be changed this way (ignored). */
export function parseAccountAttributes(attributes: unknown): AccountInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  if (a.username !== undefined) checkUsername(problems, a.username);
  if (a.email !== undefined) checkEmail(problems, a.email);
  problems.throwIfAny();
  const out: AccountInput = {};
  if (a.username !== undefined) out.username = a.username;
  if (a.email !== undefined) out.email = a.email;
  return out;
}

/**
 * An invitation to an email nobody has yet claims no username: it is held by a placeholder user
 * (its id is what the membership's `user` relationship names, as HCP Terraform gives invited
 * people a user id) whose stored username is `~` and its own id. No username a person can choose
 * starts with `~` (see USERNAME), so it never takes one from anyone, and it is unique as ids are.
 * It is shown as `""` (HCP Terraform's username of an invited person without an account); the
 * user created later with that email takes the placeholder over (users.createUser).
 */
const PENDING_PREFIX = '~';
export const pendingUsername = (userId: string): string => `${PENDING_PREFIX}${userId}`;
export const isPendingUsername = (stored: string): boolean => stored.startsWith(PENDING_PREFIX);
/** The username documents show: `""` for an invitation's placeholder. */
export const shownUsername = (stored: string): string => (isPendingUsername(stored) ? '' : stored);
/** A `like` pattern of every placeholder's stored username (`~` is no wildcard). */
export const PENDING_USERNAME_LIKE = `${PENDING_PREFIX}%`;

/** `base`, or `base-2`, `base-3`, ... : the first not in `taken`. */
export function freeUsername(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}
