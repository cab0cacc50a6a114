import { BerthError, type ErrorItem } from '../../domain/common/errors.js';
import { ServerUnreachableError } from '../../client/transport.js';
import { DatabaseUnreachableError, NewerSchemaError } from '../../store/database-errors.js';
import { pointerLabel, withFlagNames } from './api-names.js';

/** Stable exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  invalid: 5,
  unauthorized: 6,
  unreachable: 7,
  lockedByOther: 8,
  unavailable: 9,
  /** Interrupted (Ctrl-C at a prompt): 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

/** The prompt library's error when Ctrl-C (or a closed terminal) ends a prompt. */
export function isPromptInterrupt(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}

/** A command used wrongly (missing argument, refused prompt): exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof NewerSchemaError) return EXIT.usage;
  if (err instanceof ServerUnreachableError || err instanceof DatabaseUnreachableError) return EXIT.unreachable;
  if (err instanceof BerthError) {
    switch (err.status) {
      case 400:
      case 413:
      case 415:
      case 422:
        return EXIT.invalid;
      case 401:
      case 403:
        return EXIT.unauthorized;
      case 404:
        return EXIT.notFound;
      case 409:
        return /is locked by/.test(err.detail ?? '') ? EXIT.lockedByOther : EXIT.conflict;
      case 503:
        return EXIT.unavailable;
      default:
        return EXIT.unexpected;
    }
  }
  return EXIT.unexpected;
}

/**
 * What a 404 means: the server answers it both for what does not exist and for what the caller
 * may not see or may not change, and never says which.
 */
const NOT_FOUND_OR_NOT_ALLOWED = 'not found, or you are not allowed to access it';

function lineFor(i: ErrorItem): string {
  // The API's parameter names and pointers, in the CLI's words (api-names.ts).
  const label = i.pointer ? pointerLabel(i.pointer) : '';
  const where = label ? ` (${label})` : '';
  const detail = i.detail ? withFlagNames(i.detail) : undefined;
  if (i.status === 404) {
    // The server's own refusal already says both ("not found, or you are not authorized to ...").
    if (detail?.startsWith('not found, or ')) return `${detail}${where}`;
    return detail ? `${NOT_FOUND_OR_NOT_ALLOWED}: ${detail}${where}` : NOT_FOUND_OR_NOT_ALLOWED;
  }
  return detail ? `${i.title}: ${detail}${where}` : i.title;
}

/** The one-line message printed on stderr for an error. */
export function messageFor(err: unknown): string {
  if (err instanceof BerthError) {
    const lines = err.items.map(lineFor);
    return `Error: ${lines.join('\nError: ')}`;
  }
  if (err instanceof Error) return `Error: ${err.message}`;
  return `Error: ${String(err)}`;
}
