import type { GeneralSettingsAttributes } from '../../client/admin-settings.js';
import type { Resource } from '../../client/jsonapi.js';
import { renderFields } from '../output/output.js';

export function generalSettingsFields(s: Resource<GeneralSettingsAttributes>): string {
  const access = s.attributes['default-remote-state-access'];
  return renderFields([
    [
      'Default remote state access',
      access ? 'every workspace of the organization (global, the default)' : 'approved consumers only',
    ],
  ]);
}
