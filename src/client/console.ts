import type { BerthClient } from './client.js';
import type { Attributes, SingleResult } from './jsonapi.js';

export interface SignInLinkAttributes extends Attributes {
  /** The one-time code (secret; valid 60 seconds, once). */
  code: string;
  'expires-at': string;
}

/** The web console's one-time sign-in links (`berth login --web`). */
export function consoleApi(client: BerthClient) {
  return {
    createSignInLink: async () =>
      (await client.request<SingleResult<SignInLinkAttributes>>('POST', '/console/sign-in-links')).body!.data,
  };
}
