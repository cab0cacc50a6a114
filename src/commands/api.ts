import { readFileSync } from 'node:fs';
import { Args, Flags } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { apiBody, apiPath, apiQuery, parseFields } from '../cli/common/api-request.js';
import { exitCodeFor } from '../cli/common/exit-codes.js';
import { usageError } from '../cli/common/prompts.js';
import { BerthError } from '../domain/common/errors.js';

export default class Api extends BerthCommand<typeof Api> {
  static override summary = 'Make an authenticated request to the API and print the response (like `gh api`).';
  static override description = `PATH is relative to /api/v2 (a leading /api/v2 is accepted too) and may carry a query string. The request goes through the same transport and credentials as every other command: in-process in local mode, over HTTP with --server.

--field KEY=VALUE (-F) adds a typed value (true, false, null and numbers become JSON; @FILE reads a file), --raw-field KEY=VALUE (-f) a string. KEY may nest with brackets: data[attributes][name]=web. For GET and DELETE the fields become query parameters, otherwise a JSON body. --input FILE (- for stdin) sends the file as the body instead.

The response body is printed as it comes (JSON pretty-printed; --jq filters a success). The exit code follows the status: 0 for 2xx, else berth's exit code for that status (3 not found, 5 invalid, 6 unauthorized, ...); an error answer is printed whole whatever --jq says, with "HTTP STATUS: title: detail" on stderr.`;
  static override examples = [
    '<%= config.bin %> api GET /organizations',
    '<%= config.bin %> api GET /organizations/acme/workspaces --jq ".data[].attributes.name"',
    '<%= config.bin %> api GET "/organizations/acme/workspaces?search[name]=web"',
    '<%= config.bin %> api POST /organizations/acme/workspaces -f data[type]=workspaces -f data[attributes][name]=web',
    '<%= config.bin %> api PATCH /workspaces/ws-abc --input body.json',
    '<%= config.bin %> api DELETE /workspaces/ws-abc --server https://berth.example.com',
  ];
  static override args = {
    method: Args.string({ description: 'HTTP method: GET, POST, PATCH, PUT or DELETE', required: true }),
    path: Args.string({ description: 'path under /api/v2, e.g. /organizations/acme/workspaces', required: true }),
  };
  static override flags = {
    field: Flags.string({
      char: 'F',
      description: 'a typed parameter KEY=VALUE (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'raw-field': Flags.string({
      char: 'f',
      description: 'a string parameter KEY=VALUE (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    input: Flags.string({
      description: 'file to send as the request body (- for stdin)',
      exclusive: ['field', 'raw-field'],
    }),
  };

  async run(): Promise<void> {
    const method = this.args.method.toUpperCase();
    if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method))
      throw usageError(`unknown method "${this.args.method}": use GET, POST, PATCH, PUT or DELETE`);
    const fields = parseFields(this.flags.field ?? [], this.flags['raw-field'] ?? [], (f) => readFileSync(f, 'utf8'));
    let path = apiPath(this.args.path);
    let body: string | undefined;
    if (this.flags.input !== undefined) body = readFileSync(this.flags.input === '-' ? 0 : this.flags.input, 'utf8');
    else if (fields.length > 0) {
      if (method === 'GET' || method === 'DELETE') path = apiQuery(path, fields);
      else body = JSON.stringify(apiBody(fields));
    }
    const res = await (await this.client()).send(method, path, body);
    const json = res.text === '' ? undefined : tryJson(res.text);
    const failed = res.status >= 300;
    // An error is printed whole: a --jq written for the success document would hide it.
    if (json !== undefined && !failed) this.print(json, () => JSON.stringify(json, null, 2));
    else if (json !== undefined) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    else if (res.text !== '') process.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
    if (failed) {
      const reasons = errorLines(json);
      this.note(reasons.length > 0 ? reasons.map((r) => `HTTP ${res.status}: ${r}`).join('\n') : `HTTP ${res.status}`);
      this.exit(exitCodeFor(new BerthError([{ status: res.status, title: `HTTP ${res.status}` }])));
    }
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `title: detail (pointer)` of each JSON:API error object of an answer, if it has any. */
function errorLines(json: unknown): string[] {
  const errors = (json as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.map((e: { title?: unknown; detail?: unknown; source?: { pointer?: unknown } }) => {
    const parts = [e.title, e.detail].filter((x) => typeof x === 'string' && x !== '').join(': ');
    const pointer = typeof e.source?.pointer === 'string' ? ` (${e.source.pointer})` : '';
    return `${parts || 'error'}${pointer}`;
  });
}
