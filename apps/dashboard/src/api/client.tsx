import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { ownerFetch, type FetchOptions, type OwnerSession } from '../session';

const SessionContext = createContext<OwnerSession | undefined>(undefined);

export function SessionProvider({ session, children }: { session: OwnerSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export type Api = <T>(path: string, init?: FetchOptions) => Promise<T>;

/** The owner's HTTP call bound to the signed-in session. */
export function useApi(): Api {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useApi outside of SessionProvider');
  return useCallback(<T,>(path: string, init?: FetchOptions) => ownerFetch<T>(session, path, init), [session]);
}

/** Offset-paging metadata as the list routes answer it. */
export interface PageMeta { count: number; offset?: number; total?: number; tooManyToCount?: boolean }
