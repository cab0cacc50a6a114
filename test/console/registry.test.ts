import { describe, expect, it } from 'vitest';
import { newestFirst } from '../../src/console/pages/registry/registry-types.js';
import { parseRoute } from '../../src/console/router.js';

/** The console's Registry page (issue 44): its route and the order of versions it shows. */
describe('console registry', () => {
  it('routes #/orgs/ORG/registry to the Registry page', () => {
    expect(parseRoute('#/orgs/acme/registry')).toMatchObject({ page: 'registry', org: 'acme' });
    expect(parseRoute('#/orgs/acme/registry/x')).toMatchObject({ page: 'not-found' });
  });

  it('orders versions newest first, as semantic versioning does', () => {
    const versions = ['1.0.0', '1.10.0', '1.2.0', '2.0.0-beta.1', '2.0.0', '1.2.0-rc.1', '0.9.12'];
    expect([...versions].sort(newestFirst)).toEqual([
      '2.0.0',
      '2.0.0-beta.1',
      '1.10.0',
      '1.2.0',
      '1.2.0-rc.1',
      '1.0.0',
      '0.9.12',
    ]);
  });
});
