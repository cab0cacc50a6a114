import { createHash } from 'node:crypto';
import { invalid } from '../common/errors.js';
import { parseStateText, type ParsedState } from './state-parse.js';

export type { ParsedState, StateInstance, StateOutput } from './state-parse.js';

export function md5Hex(bytes: Buffer | string): string {
  return createHash('md5').update(bytes).digest('hex');
}

/**
 * Parses a state file, without bounds, on the calling thread; throws a 422 at `pointer` when it
 * is not a JSON object. A body that is not valid UTF-8 is read with replacement characters (only
 * for what berth extracts: the bytes themselves are kept as they are). Uploads go through
 * `services/state/state-parser.ts` instead, which bounds the cost and parses big states on a worker.
 */
export function parseState(body: Buffer | string, pointer: string): ParsedState {
  const result = parseStateText(typeof body === 'string' ? body : body.toString('utf8'), null);
  if (!result.ok) throw invalid(pointer, result.detail);
  return result.state;
}

/** Decodes base64 strictly (round-trips), or null. */
export function decodeBase64(value: string): Buffer | null {
  const clean = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return null;
  return Buffer.from(clean, 'base64');
}
