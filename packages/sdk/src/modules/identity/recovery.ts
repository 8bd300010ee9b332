/** `@vitrine/sdk/identity` -> `recovery`: password reset e-mails and resets. */
import { defineMethod } from '../../define.js';
import type { StateMachineResponse } from './authentication.js';

export interface Redirect { url?: string; clientId?: string }

export const sendRecoveryEmail = defineMethod((client, email: string, options: { language?: string; redirect?: Redirect } = {}) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/_api/iam/recovery/v1/send-email', payload: { email, ...options } }));

export const sendActivationEmail = defineMethod((client, identityId: string, options: { emailOptions?: { language?: string; redirect?: Redirect } } = {}) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/_api/iam/recovery/v1/activation-email', payload: { identityId, ...options } }));

export const recover = defineMethod((client, recoveryToken: string, options: { password?: string } = {}) =>
  client.request<StateMachineResponse>({
    method: 'POST', path: '/_api/iam/recovery/v1/recover', payload: { recoveryToken, ...options },
    decode: { dates: ['identity.createdDate', 'identity.updatedDate'] },
  }));
