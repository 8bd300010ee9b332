import { z } from 'zod';
import { publicRoute, type RouteDef } from '../../http/route.js';
import { badRequest, violation } from '../../http/errors.js';
import { grantAnonymous, grantRefresh } from './service.js';
import { jwksResponse, tokenRequest, tokenResponse } from './schema.js';

export const identityRoutes: RouteDef[] = [
  publicRoute({
    method: 'POST',
    path: '/oauth2/token',
    summary: 'Issue tokens: anonymous visitor, refresh',
    request: tokenRequest,
    response: tokenResponse,
    async handler(ctx, input) {
      const grant = input.grantType ?? input.grant_type;
      if (!grant) throw violation('grantType', 'is required', 'REQUIRED_FIELD');
      switch (grant) {
        case 'anonymous':
          if (!input.clientId) throw violation('clientId', 'is required', 'REQUIRED_FIELD');
          return grantAnonymous(ctx, input.clientId);
        case 'refresh_token':
          if (!input.clientId) throw violation('clientId', 'is required', 'REQUIRED_FIELD');
          if (!input.refreshToken) throw violation('refreshToken', 'is required', 'REQUIRED_FIELD');
          return grantRefresh(ctx, input.clientId, input.refreshToken);
        default:
          throw badRequest('UNSUPPORTED_GRANT_TYPE', `Grant type "${grant}" is not supported`);
      }
    },
  }),
  publicRoute({
    method: 'GET',
    path: '/oauth2/jwks',
    summary: 'Public keys that verify access tokens',
    request: z.object({}),
    response: jwksResponse,
    async handler(ctx) {
      return ctx.deps.keys.jwks();
    },
  }),
];
