/**
 * The coarse type of an output, as HCP Terraform reports it in the `type` of a state version
 * output and the `output-type` of a workspace output: the JSON type of the value (`string`,
 * `number`, `boolean`, `array`, `object`). It comes from the type the state declares
 * (`"bool"`, `["list","string"]`, `["object",{...}]`, ...) and, when that says nothing usable
 * (no type, `"dynamic"`), from the value itself.
 */
export function coarseOutputType(declared: unknown, value: unknown): string {
  const kind: unknown = Array.isArray(declared) ? (declared as unknown[])[0] : declared;
  switch (kind) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'list':
    case 'set':
    case 'tuple':
      return 'array';
    case 'map':
    case 'object':
      return 'object';
    default:
      return jsonTypeOf(value);
  }
}

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'string';
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    default:
      return 'string';
  }
}
