import * as v from 'valibot';
import { Problems } from './errors.js';
import { charLength } from './text.js';
import { isPlainText, NOT_TEXT } from './limits.js';

/**
 * Type-checks a JSON:API `attributes` object against a valibot schema and turns every issue into
 * a 422 `invalid attribute` error whose pointer names the attribute. Unknown keys are ignored,
 * as real clients send more than a server needs.
 */
export function checkAttributes<S extends v.GenericSchema>(
  schema: S,
  attributes: unknown,
  base = '/data/attributes',
): v.InferOutput<S> {
  const result = v.safeParse(schema, attributes ?? {});
  if (result.success) return result.output;
  const problems = new Problems();
  for (const issue of result.issues) {
    const keys = (issue.path ?? []).map((p) => String(p.key));
    const name = keys.length > 0 ? keys.join('.') : 'attributes';
    problems.add(keys.length > 0 ? `${base}/${keys.join('/')}` : base, `${capitalise(name)} ${issue.message}`);
  }
  problems.throwIfAny();
  throw new Error('unreachable');
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Small schema helpers with messages phrased to follow the attribute name ("Name must be a string").
export const str = () => v.string('must be a string');
/**
 * A free text of at most `max` characters (code points; domain/common/limits.ts lists every limit),
 * without control characters other than tab and line breaks, nor unpaired surrogates.
 */
export const text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.check((s) => charLength(s) <= max, `is too long (maximum is ${max} characters)`),
    v.check(isPlainText, NOT_TEXT),
  );
export const bool = () => v.boolean('must be a boolean');
/** The largest integer an attribute may hold: what a 32-bit column holds, on either engine. */
export const MAX_INT = 2_147_483_647;
export const int = () =>
  v.pipe(
    v.number('must be an integer'),
    v.integer('must be an integer'),
    v.minValue(-MAX_INT, `must be greater than or equal to ${-MAX_INT}`),
    v.maxValue(MAX_INT, `must be less than or equal to ${MAX_INT}`),
  );
export const opt = <S extends v.GenericSchema>(s: S) => v.optional(s);
export const nullable = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s));
export const oneOf = <T extends string>(values: readonly T[]) =>
  v.picklist(values, `must be one of: ${values.join(', ')}`);
