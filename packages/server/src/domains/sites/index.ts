// What other domains may use of sites: reading a site and checking that it serves.
export { assertSiteServes, getSite, getSiteCached } from './service.js';
export type { Site, SiteSettings, SiteStatus } from './model.js';
