import { z } from 'zod';

/** `POST /oauth2/token`: the public client sends camelCase, the external-login grant snake_case. */
export const tokenRequest = z.object({
  clientId: z.string().min(1).max(200).optional(),
  grantType: z.string().max(50).optional(),
  grant_type: z.string().max(50).optional(),
  refreshToken: z.string().max(500).optional(),
  code: z.string().max(500).optional(),
  codeVerifier: z.string().max(500).optional(),
  redirectUri: z.string().max(2000).optional(),
  scope: z.string().max(200).optional(),
  member_id: z.string().max(200).optional(),
  session_token: z.string().max(2000).optional(),
});

export const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  token_type: z.literal('Bearer'),
});

export const jwksResponse = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
