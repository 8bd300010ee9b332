import type { AuthStrategy } from './types.js';

export interface ApiKeyStrategyConfig {
  apiKey: string;
  siteId: string;
  accountId?: string;
}

export interface ApiKeyAuth extends AuthStrategy {
  readonly elevated: true;
  /** Changes the site the key acts on (later calls). */
  setSiteId(siteId: string): void;
}

/** Elevated (site owner) auth: the raw key in `Authorization` and the site in `wix-site-id`. */
export function ApiKeyStrategy(config: ApiKeyStrategyConfig): ApiKeyAuth {
  let siteId = config.siteId;
  return {
    elevated: true,
    setSiteId(id) {
      siteId = id;
    },
    async getAuthHeaders() {
      const headers: Record<string, string> = { Authorization: config.apiKey, 'wix-site-id': siteId };
      if (config.accountId) headers['wix-account-id'] = config.accountId;
      return { headers };
    },
  };
}
