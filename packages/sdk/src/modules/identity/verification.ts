/** `@vitrine/sdk/identity` -> `verification`: e-mailed codes during login/register, and standalone. */
import type * as wire from '@vitrine/types/identity';
import { defineMethod } from '../../define.js';
import type { StateMachineResponse } from './authentication.js';

export const verifyDuringAuthentication = defineMethod((client, code: string, options: { stateToken: string }) =>
  client.request<StateMachineResponse>({
    method: 'POST', path: '/_api/iam/verification/v1/auth/verify', payload: { code, ...options },
    decode: { dates: ['identity.createdDate', 'identity.updatedDate'] },
  }));

export const resendDuringAuthentication = defineMethod((client, stateToken: string) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/_api/iam/verification/v1/auth/resend', payload: { stateToken } }));

export const start = defineMethod((client, options: { identityId?: string; target?: 'EMAIL' } = {}) =>
  client.request<wire.StartVerificationResponse>({ method: 'POST', path: '/_api/iam/verification/v1/start', payload: { ...options } }));

export const verify = defineMethod((client, code: string, options: { verificationId: string }) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/_api/iam/verification/v1/verify', payload: { code, ...options } }));
