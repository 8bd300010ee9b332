import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '../router';
import { useQueryClient } from '@tanstack/react-query';
import { finishSignIn } from '../sign-in';

/** Where the hosted login page sends the browser back with `code` and `state`. */
export function CallbackPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string>();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice; a code is single use
    started.current = true;
    finishSignIn()
      .then(async (next) => {
        await queryClient.invalidateQueries();
        navigate(next, { replace: true });
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [navigate, queryClient]);
  return error ? <p role="alert" className="rounded bg-rose-50 p-4 text-rose-800">{error}</p> : <p className="text-stone-700">Signing you in…</p>;
}
