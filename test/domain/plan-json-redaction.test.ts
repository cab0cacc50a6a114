import { describe, expect, it } from 'vitest';
import { redactedPlan, redactPair, redactSensitive } from '../../src/domain/runs/plan-json.js';

/** The redaction of a JSON plan's sensitive values (domain/runs/plan-json.ts), case by case. */
describe('redacting a JSON plan', () => {
  it('replaces a sensitive value by a placeholder of its JSON type, hiding a collection whole', () => {
    expect(redactSensitive('secret', true)).toBe('');
    expect(redactSensitive(42, true)).toBe(0);
    expect(redactSensitive(true, true)).toBe(false);
    expect(redactSensitive(null, true)).toBeNull();
    expect(redactSensitive(['a', 'b'], true)).toEqual([]);
    expect(redactSensitive({ key: 'v' }, true)).toEqual({});
    expect(redactSensitive({ a: 'x', b: ['y', 'z'] }, { b: [true] })).toEqual({ a: 'x', b: ['', 'z'] });
    expect(redactSensitive('visible', false)).toBe('visible');
    expect(redactSensitive({ a: 'x' }, undefined)).toEqual({ a: 'x' });
  });

  it('tells a changed sensitive value from an unchanged one, and nothing more', () => {
    expect(redactPair('old', 'new', true, true)).toEqual(['', '*']);
    expect(redactPair('same', 'same', true, true)).toEqual(['', '']);
    expect(redactPair(1, 2, true, true)).toEqual([0, 1]);
    // Sensitivity added or removed: the other side stays as it is.
    expect(redactPair('plain', 'secret', false, true)).toEqual(['plain', '*']);
    expect(redactPair('secret', 'plain', true, false)).toEqual(['', 'plain']);
    // A create (before null) and a delete (after null).
    expect(redactPair(null, { p: 's' }, false, { p: true })).toEqual([null, { p: '*' }]);
    expect(redactPair({ p: 's' }, null, { p: true }, false)).toEqual([{ p: '' }, null]);
    // A value that changed type: each side on its own.
    expect(redactPair(['s'], 'x', [true], false)).toEqual([[''], 'x']);
  });

  it('keeps the fields the CLI renders, and the provider schemas', () => {
    const doc = redactedPlan(
      {
        format_version: '1.2',
        variables: { v: { value: 'secret' } },
        prior_state: {},
        resource_changes: [{ address: 'a.b', change: { before: null, after: 's', after_sensitive: true } }],
        deferred_changes: [
          { reason: 'x', resource_change: { change: { before: 's', after: null, before_sensitive: true } } },
        ],
      },
      { format_version: '1.0', provider_schemas: { p: {} } },
    );
    expect(doc).toEqual({
      plan_format_version: '1.2',
      resource_changes: [{ address: 'a.b', change: { before: null, after: '*', after_sensitive: true } }],
      deferred_changes: [
        { reason: 'x', resource_change: { change: { before: '', after: null, before_sensitive: true } } },
      ],
      provider_format_version: '1.0',
      provider_schemas: { p: {} },
    });
    expect(redactedPlan('nonsense', null)).toEqual({
      plan_format_version: '',
      provider_format_version: '',
      provider_schemas: {},
    });
  });
});
