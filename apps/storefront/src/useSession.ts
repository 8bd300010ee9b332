import { useSyncExternalStore } from 'react';
import { auth } from './client';

/** Whether a member is signed in; re-renders when tokens change. */
export function useLoggedIn(): boolean {
  return useSyncExternalStore((onChange) => auth.subscribe(onChange), () => auth.loggedIn());
}
