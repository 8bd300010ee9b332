import { createClient } from '../../client.js';
import { redirects } from '../../modules/redirects/index.js';
import type { OAuthCore } from './visitor.js';
import { EMPTY_TOKENS } from './tokens.js';

export interface LogoutFlows {
  /** Creates the logout redirect session, clears the tokens, answers the URL to send the browser to. */
  logout(originalUrl: string): Promise<{ logoutUrl: string }>;
}

export function logoutFlows(core: OAuthCore): LogoutFlows {
  return {
    async logout(originalUrl) {
      const env = core.env();
      const client = createClient({ host: env.host, fetch: env.fetch, auth: core.visitorAuth, modules: { redirects } });
      const { redirectSession } = await client.redirects.createRedirectSession({ logout: { clientId: core.clientId }, callbacks: { postFlowUrl: originalUrl } });
      core.setTokens(EMPTY_TOKENS);
      return { logoutUrl: redirectSession.fullUrl };
    },
  };
}
