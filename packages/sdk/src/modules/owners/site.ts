/**
 * The store's details and member sign-up rules (`@vitrine/sdk/owners` -> `site`), for Settings:
 * name, notice e-mail, e-mail verification, owner approval, captcha. Owners, staff with the settings
 * area, and API keys.
 */
import type { SiteCaptchaMode, SiteDetails, SiteDetailsPatch } from '@vitrine/types/owners';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type { SiteCaptchaMode, SiteDetailsPatch };
export type Site = FromWire<SiteDetails>;

const PATH = '/_api/vitrine/settings/v1/site';

export const getSiteDetails = defineMethod(async (client) =>
  (await client.request<{ site: Site }>({ method: 'GET', path: PATH, payload: {} })).site);

/** Changes the fields given (others keep their value); `ownerEmail: ''` removes the notice e-mail. */
export const updateSiteDetails = defineMethod(async (client, site: SiteDetailsPatch) =>
  (await client.request<{ site: Site }>({ method: 'PATCH', path: PATH, payload: { site } })).site);
