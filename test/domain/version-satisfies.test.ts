import { describe, expect, it } from 'vitest';
import { versionSatisfies } from '../../src/domain/runs/run-execution.js';

describe('versionSatisfies (a workspace terraform-version against the executor binary)', () => {
  it.each([
    ['1.11.4', 'latest', true],
    ['1.11.4', '1.11.4', true],
    ['1.11.4', '1.11.3', false],
    ['1.11.4', '= 1.11.4', true],
    ['1.11.4', '!= 1.11.4', false],
    ['1.11.4', '>= 1.10.0, < 1.12.0', true],
    ['1.11.4', '>= 1.12', false],
    ['1.11.4', '~> 1.11.0', true],
    ['1.11.4', '~> 1.10.0', false],
    ['1.11.4', '~> 1.9', true],
    ['1.11.4', '~> 2.0', false],
    ['1.11.4', '> 1.11.4', false],
    ['1.11.4', '<= 1.11.4', true],
    ['1.12.0-beta1', '>= 1.11.0', false],
    ['1.12.0-beta1', '1.12.0-beta1', true],
    ['1.11.4', 'nonsense', false],
  ])('%s satisfies %s: %s', (version, constraint, expected) => {
    expect(versionSatisfies(version, constraint)).toBe(expected);
  });
});
