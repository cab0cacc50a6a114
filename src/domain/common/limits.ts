import { BerthError, Problems } from './errors.js';
import { charLength } from './text.js';

/**
 * The length limits of every free-text attribute berth stores, in characters (Unicode code
 * points, `charLength`), and the limits on the number of entries of list attributes. Together
 * with the page size (at most 100) they bound what one answer may cost: docs/api.md, "Limits",
 * lists each one, its source (HCP Terraform's documentation, or berth's own choice) and the worst
 * case of a page. Rules that name their own limit next to their format (names, tag keys and
 * values, SSH keys) keep it there and are listed in the same section.
 */
export const TEXT_LIMITS = {
  // Workspaces.
  workspaceDescription: 1000,
  sourceName: 255,
  sourceUrl: 1024,
  workingDirectory: 512,
  terraformVersion: 128,
  triggerEntry: 255,
  vcsIdentifier: 255,
  vcsBranch: 255,
  vcsTagsRegex: 255,
  vcsInstallationId: 255,
  /** An id given where a record is looked up (agent pool, OAuth token): longer is never an id. */
  reference: 255,
  lockReason: 1000,
  // Organizations and users.
  email: 254,
  ownersTeamSamlRoleId: 255,
  // OAuth tokens.
  oauthTokenName: 255,
  // Tokens of users, teams, organizations and site administrators.
  tokenDescription: 255,
  // Runs.
  runMessage: 1000,
  runErrorMessage: 1000,
  /** A comment on a run (alone, or with apply, discard, cancel, force-cancel). */
  runComment: 10_000,
  // State versions: a lineage is a UUID in practice.
  lineage: 255,
} as const;

/** Entries of `trigger-prefixes` and of `trigger-patterns`, each. */
export const MAX_TRIGGER_ENTRIES = 10;
/** Flat (legacy) tags one workspace carries. */
export const MAX_FLAT_TAGS_PER_WORKSPACE = 50;
/**
 * Lists that documents carry whole, capped where they are written: a team's members (active and
 * invited), the teams of an organization (a membership lists its teams), the workspaces an agent
 * pool allows, and a user's tokens (listed without pages, as go-tfe reads them).
 */
export const MAX_TEAM_MEMBERS = 1000;
export const MAX_TEAMS_PER_ORGANIZATION = 1000;
export const MAX_ALLOWED_WORKSPACES_PER_POOL = 1000;
export const MAX_TOKENS_PER_USER = 1000;

/**
 * The largest saved plan (`terraform plan -out`) berth stores for a run between its plan and its
 * apply (services/runs/saved-plans.ts): 64 MiB, like a configuration archive or a state file, which
 * it holds compressed. A plan over it ends its run errored (the run cannot be applied as planned).
 */
export const MAX_SAVED_PLAN_BYTES = 64 * 1024 * 1024;

/** Why a saved plan of `size` bytes is not stored (the run's error message and its plan's log). */
export const savedPlanTooLarge = (size: number, max = MAX_SAVED_PLAN_BYTES) =>
  `The saved plan is ${size} bytes, more than the ${max} bytes berth stores between a plan and its apply: ` +
  'this run cannot be applied as planned. Plan fewer resources per run (-target), or split the configuration.';

/**
 * The largest JSON plan berth keeps for a run (`terraform show -json` of its saved plan, plus the
 * provider schemas `terraform providers schema -json` printed, together; services/runs/plan-json.ts):
 * 64 MiB, like a saved plan. Over it, the executor logs why and keeps none: the run goes on, but
 * `GET /plans/:id/json-output` and `terraform show` of its saved plan have nothing to show.
 */
export const MAX_PLAN_JSON_BYTES = 64 * 1024 * 1024;

/** Why a JSON plan of `size` bytes (plan and provider schemas) is not kept. */
export const planJsonTooLarge = (size: number, max = MAX_PLAN_JSON_BYTES) =>
  `The JSON plan and provider schemas are ${size} bytes, more than the ${max} bytes berth keeps: ` +
  'the plan can be applied, but not shown as JSON (json-output, terraform show of a saved plan).';

/** A 422 at `pointer` for a list that would grow past its cap. */
export function tooMany(pointer: string, what: string, max: number): BerthError {
  return new BerthError([{ status: 422, title: 'invalid attribute', detail: `${what} (at most ${max})`, pointer }]);
}

export const tooLongDetail = (label: string, max: number) => `${label} is too long (maximum is ${max} characters)`;
export const NOT_TEXT = 'must not contain control characters (other than tab and line breaks) or unpaired surrogates';

// C0 controls but tab, LF and CR; DEL and the C1 controls; a high surrogate not followed by a low
// one, or a low one not preceded by a high one. JSON escapes each of them as six bytes (\u0001).
const NOT_TEXT_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a text holds only characters a free-text attribute may hold. */
export function isPlainText(value: string): boolean {
  return !NOT_TEXT_CHARS.test(value);
}

/**
 * Adds a problem at `pointer` when `value` is a string longer than `max` or holding characters no
 * text may hold (`isPlainText`); true when it is fine.
 */
export function checkLength(
  problems: Problems,
  pointer: string,
  label: string,
  value: unknown,
  max: number,
): value is string | null | undefined {
  if (typeof value !== 'string') return true;
  if (charLength(value) > max) problems.add(pointer, tooLongDetail(label, max));
  else if (!isPlainText(value)) problems.add(pointer, `${label} ${NOT_TEXT}`);
  else return true;
  return false;
}

/** Throws a 422 at `pointer` when `checkLength` finds a problem. */
export function requireLength(pointer: string, label: string, value: unknown, max: number): void {
  const problems = new Problems();
  checkLength(problems, pointer, label, value, max);
  problems.throwIfAny();
}

/**
 * What a configuration archive may unpack to in a run's folder (the archive itself is at most 64
 * MiB, gzipped): 1 GiB and 100,000 files and folders. Past either, the extraction stops and the
 * run ends errored, saying so: a small archive of zeros could otherwise fill the disk.
 */
export const MAX_CONFIGURATION_UNPACKED_BYTES = 1024 * 1024 * 1024;
export const MAX_CONFIGURATION_ENTRIES = 100_000;
