import { describe, expect, it } from 'vitest';
import { concealedText, withSecretMarks } from '../../src/domain/runs/plan-json-secrets.js';
import { redactedPlan } from '../../src/domain/runs/plan-json.js';

/** The workspace's sensitive values in a redacted JSON plan (issue 42, item 6). */

describe('withSecretMarks', () => {
  const S = ['s3cret', '4242'];

  it('marks the strings and numbers holding a secret, keeping the marks terraform made', () => {
    expect(withSecretMarks('a s3cret b', false, S)).toBe(true);
    expect(withSecretMarks(424242, undefined, S)).toBe(true);
    expect(withSecretMarks('nothing', false, S)).toBe(false);
    expect(withSecretMarks(true, undefined, ['true'])).toBeUndefined();
    expect(withSecretMarks({ a: 's3cret', b: 'x', c: { d: 1 } }, { c: { d: true } }, S)).toEqual({
      a: true,
      c: { d: true },
    });
    expect(withSecretMarks(['x', 's3cret'], [true, false], S)).toEqual([true, true]);
    expect(withSecretMarks(['x', 'y'], undefined, S)).toBeUndefined();
  });

  it('marks a collection whole when one of its keys holds a secret', () => {
    expect(withSecretMarks({ list: [{ 's3cret-key': 1 }] }, {}, S)).toEqual({ list: [true] });
  });

  it('changes nothing without secrets', () => {
    const marks = { a: true };
    expect(withSecretMarks({ a: 's3cret' }, marks, [])).toBe(marks);
  });
});

describe('concealedText', () => {
  it("replaces secrets in strings and keys, the longest first, but not in terraform's own fields", () => {
    const doc = {
      address: 'x.y["s3cret-long"]',
      mode: 's3cret',
      change: { actions: ['s3cret'], before: 's3cret', replace_paths: [['s3cret']] },
      keys: { 'k-s3cret': 1 },
      n: 4242,
    };
    expect(concealedText(doc, ['s3cret', 's3cret-long', '4242'])).toEqual({
      address: 'x.y["(sensitive value)"]',
      mode: 's3cret',
      change: { actions: ['s3cret'], before: 's3cret', replace_paths: [['(sensitive value)']] },
      keys: { 'k-(sensitive value)': 1 },
      n: 4242,
    });
  });
});

describe('redactedPlan with secrets', () => {
  it('hides a secret that terraform did not mark, in every part the CLI reads, never in the schemas', () => {
    const plan = {
      format_version: '1.2',
      output_changes: {
        o: { actions: ['update'], before: 'old', after: 'new-s3cret', before_sensitive: false, after_sensitive: false },
        same: {
          actions: ['no-op'],
          before: 's3cret',
          after: 's3cret',
          before_sensitive: false,
          after_sensitive: false,
        },
      },
      resource_drift: [
        { address: 'a.b', mode: 'managed', change: { actions: ['update'], before: {}, after: { v: 's3cret' } } },
      ],
      relevant_attributes: [{ resource: 'a.b', attribute: ['tags', 's3cret'] }],
    };
    const schemas = { format_version: '1.0', provider_schemas: { p: { description: 's3cret' } } };
    const doc = redactedPlan(plan, schemas, ['s3cret']);
    expect(doc.output_changes).toEqual({
      o: { actions: ['update'], before: 'old', after: '*', before_sensitive: false, after_sensitive: true },
      // Unchanged stays unchanged: both sides the same placeholder.
      same: { actions: ['no-op'], before: '', after: '', before_sensitive: true, after_sensitive: true },
    });
    expect((doc.resource_drift as any)[0].change).toMatchObject({ after: { v: '*' }, after_sensitive: { v: true } });
    expect(doc.relevant_attributes).toEqual([{ resource: 'a.b', attribute: ['tags', '(sensitive value)'] }]);
    expect(doc.provider_schemas).toEqual(schemas.provider_schemas);
    // Without secrets, as before.
    expect(redactedPlan(plan, schemas).output_changes).toEqual(plan.output_changes);
  });
});
