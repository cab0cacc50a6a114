import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnection, serverUrl } from '../../../src/cli/connection/connection.js';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33, item 17.10: `--server https://host/api/v2` sent requests to /api/v2/api/v2.
describe('a server URL given with the API path', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('serverUrl drops a trailing /api/v2 or /api/v2/, and nothing else', () => {
    expect(serverUrl('https://berth.example.com/api/v2')).toBe('https://berth.example.com');
    expect(serverUrl('https://berth.example.com/api/v2/')).toBe('https://berth.example.com');
    expect(serverUrl('localhost:8080/api/v2')).toBe('http://localhost:8080');
    expect(serverUrl('https://example.com/tfe/api/v2/')).toBe('https://example.com/tfe');
    expect(serverUrl('https://example.com/api/v2x')).toBe('https://example.com/api/v2x');
    const empty = { profiles: {}, credentials: {} };
    expect(resolveConnection({}, { TFE_ADDRESS: 'https://tfe.example.com/api/v2' }, empty, 'default').server).toBe(
      'https://tfe.example.com',
    );
  });

  it('from the flag, the environment, the config file, and as config set stores it', async () => {
    const config = join(tmp.dir, 'config.json');
    const server = (stdout: string) => /^Server +(\S+)/m.exec(stdout)?.[1];
    const flag = await runCli(['config', 'list', '--server', 'http://127.0.0.1:9/api/v2/'], { BERTH_CONFIG: config });
    expect(server(flag.stdout)).toBe('http://127.0.0.1:9');
    const env = await runCli(['config', 'list'], {
      BERTH_CONFIG: config,
      BERTH_SERVER: 'https://b.example.com/api/v2',
    });
    expect(server(env.stdout)).toBe('https://b.example.com');
    expect(
      (await runCli(['config', 'set', 'server', 'https://c.example.com/api/v2/'], { BERTH_CONFIG: config })).code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8')).profiles.default.server).toBe('https://c.example.com');
    // A file written by hand (or by an older berth) with the path in it.
    writeFileSync(config, JSON.stringify({ profiles: { default: { server: 'https://d.example.com/api/v2' } } }));
    const file = await runCli(['config', 'list'], { BERTH_CONFIG: config });
    expect(server(file.stdout)).toBe('https://d.example.com');
  });
});
