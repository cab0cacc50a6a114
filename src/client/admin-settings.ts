import type { BerthClient } from './client.js';
import type { Resource } from './jsonapi.js';

export type GeneralSettingsAttributes = {
  'default-remote-state-access': boolean;
};

const PATH = '/admin/general-settings';

/** The instance's general settings (`/admin/general-settings`: self-hosted, site administrators). */
export class AdminSettingsClient {
  constructor(private readonly client: BerthClient) {}

  async show(): Promise<Resource<GeneralSettingsAttributes>> {
    return (await this.client.request<{ data: Resource<GeneralSettingsAttributes> }>('GET', PATH)).body!.data;
  }

  async update(attributes: Partial<GeneralSettingsAttributes>): Promise<Resource<GeneralSettingsAttributes>> {
    const body = { data: { type: 'general-settings', attributes } };
    return (await this.client.request<{ data: Resource<GeneralSettingsAttributes> }>('PATCH', PATH, { body })).body!
      .data;
  }
}
