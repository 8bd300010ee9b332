/** The platform's API origin; self-hosters pass their server's origin as `host`. */
export const DEFAULT_HOST = 'https://www.wixapis.com';
