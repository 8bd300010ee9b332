/**
 * Owner-account hooks over `@vitrine/sdk/owners`: the signed-in account and its sessions, staff
 * accounts, and the site's API keys and OAuth clients (Settings). Keys live under
 * `ownerKeys` (all under `['vitrine', 'owners']`, so `queryKeys.all` covers them too).
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { account, credentials, site, staff } from '@vitrine/sdk/owners';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

const OWNERS = ['vitrine', 'owners'] as const;

export const ownerKeys = {
  all: OWNERS,
  me: () => [...OWNERS, 'me'] as const,
  sessions: () => [...OWNERS, 'sessions'] as const,
  accounts: () => [...OWNERS, 'accounts'] as const,
  apiKeys: () => [...OWNERS, 'apiKeys'] as const,
  oauthClients: () => [...OWNERS, 'oauthClients'] as const,
  site: () => [...OWNERS, 'site'] as const,
};

/** The signed-in account (its role and areas decide what the dashboard offers). */
export function useOwnerAccount(options: { enabled?: boolean } = {}): UseQueryResult<account.OwnerAccount> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.me(), queryFn: () => bindModule(account, client).getMe(), enabled: options.enabled ?? true, staleTime: 60_000 });
}

export function useOwnerSessions(): UseQueryResult<account.OwnerSession[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.sessions(), queryFn: () => bindModule(account, client).listSessions() });
}

export const useRevokeOwnerSession = () =>
  useVitrineMutation((client, id: string) => bindModule(account, client).revokeSession(id), () => [ownerKeys.sessions()]);

export const useChangeOwnerPassword = () =>
  useVitrineMutation((client, v: { currentPassword: string; newPassword: string }) => bindModule(account, client).changePassword(v.currentPassword, v.newPassword), () => [ownerKeys.sessions()]);

export function useStaffAccounts(): UseQueryResult<account.OwnerAccount[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.accounts(), queryFn: () => bindModule(staff, client).listAccounts() });
}

export const useCreateStaffAccount = () =>
  useVitrineMutation((client, input: staff.OwnerAccountInput) => bindModule(staff, client).createAccount(input), () => [ownerKeys.accounts()]);

export const useUpdateStaffAccount = () =>
  useVitrineMutation((client, v: { _id: string; account: staff.OwnerAccountUpdate }) => bindModule(staff, client).updateAccount(v._id, v.account), () => [ownerKeys.accounts()]);

export const useDeleteStaffAccount = () =>
  useVitrineMutation((client, id: string) => bindModule(staff, client).deleteAccount(id), () => [ownerKeys.accounts()]);

export function useApiKeys(): UseQueryResult<credentials.SiteApiKey[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.apiKeys(), queryFn: () => bindModule(credentials, client).listApiKeys() });
}

/** -> `{ apiKey, key }`; show `key` once. */
export const useCreateApiKey = () =>
  useVitrineMutation((client, name: string) => bindModule(credentials, client).createApiKey(name), () => [ownerKeys.apiKeys()]);

export const useRevokeApiKey = () =>
  useVitrineMutation((client, id: string) => bindModule(credentials, client).revokeApiKey(id), () => [ownerKeys.apiKeys()]);

export function useOAuthClients(): UseQueryResult<credentials.SiteOAuthClient[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.oauthClients(), queryFn: () => bindModule(credentials, client).listOAuthClients() });
}

export const useCreateOAuthClient = () =>
  useVitrineMutation((client, input: credentials.SiteOAuthClientInput) => bindModule(credentials, client).createOAuthClient(input), () => [ownerKeys.oauthClients()]);

export const useDeleteOAuthClient = () =>
  useVitrineMutation((client, id: string) => bindModule(credentials, client).deleteOAuthClient(id), () => [ownerKeys.oauthClients()]);

/** The store's details and member sign-up rules (Settings -> Store and members). */
export function useSiteDetails(): UseQueryResult<site.Site> {
  const client = useVitrineClient();
  return useQuery({ queryKey: ownerKeys.site(), queryFn: () => bindModule(site, client).getSiteDetails() });
}

export const useUpdateSiteDetails = () =>
  useVitrineMutation((client, patch: site.SiteDetailsPatch) => bindModule(site, client).updateSiteDetails(patch), () => [ownerKeys.site()]);
