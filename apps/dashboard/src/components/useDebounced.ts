import { useEffect, useState } from 'react';

/** Search boxes query after typing pauses for this long, not on every keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;

export function useDebounced<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
