import { describe, expect, it } from 'vitest';
import { hclString, tfvarsFile } from '../../src/domain/variables/variable.js';

/** How a run's Terraform variables are written: HCL values as given, others as exact quoted strings. */
describe('tfvars of workspace variables', () => {
  it('quotes strings with HCL escapes, template sequences doubled', () => {
    expect(hclString('plain')).toBe('"plain"');
    expect(hclString('say "hi" \\ now')).toBe('"say \\"hi\\" \\\\ now"');
    expect(hclString('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
    expect(hclString('${var.x} %{if} $x %x')).toBe('"$${var.x} %%{if} $x %x"');
    expect(hclString('bell\u0007')).toBe('"bell\\u0007"');
    expect(hclString('ünïcode ✓')).toBe('"ünïcode ✓"');
  });

  it('writes HCL values as given', () => {
    expect(
      tfvarsFile([
        { key: 'name', value: 'web "1"', hcl: false, sensitive: false },
        { key: 'tags', value: '{ env = "prod" }', hcl: true, sensitive: false },
      ]),
    ).toBe('name = "web \\"1\\""\ntags = { env = "prod" }\n');
  });

  it('leaves out keys no configuration can declare (HCP takes any key), which no assignment could name', () => {
    expect(
      tfvarsFile([
        { key: '3f1e8c2a-1b2c-4d5e', value: 'x', hcl: false, sensitive: false },
        { key: 'a = 1\nb', value: 'x', hcl: false, sensitive: false },
        { key: 'region', value: 'eu', hcl: false, sensitive: false },
      ]),
    ).toBe('region = "eu"\n');
  });
});
