import type { GeneralSettings } from '../../services/instance/general-settings.js';
import { API_PREFIX, type ResourceObject } from '../documents.js';

/** The one `general-settings` resource of the instance (Terraform Enterprise's admin settings). */
export function serializeGeneralSettings(s: GeneralSettings): ResourceObject {
  return {
    id: 'general',
    type: 'general-settings',
    attributes: { 'default-remote-state-access': s.defaultRemoteStateAccess },
    links: { self: `${API_PREFIX}/admin/general-settings` },
  };
}
