// What other domains may use of sites: reading a site, checking that it serves, and the owners' settings change.
export { assertSiteServes, getSite, getSiteCached, getSiteForUpdate, updateSite } from './service.js';
export type { Site, SiteSettings, SiteStatus } from './model.js';
