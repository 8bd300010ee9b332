import type { Executor } from '../../storage/database.js';
import { hashSecret } from './secrets.js';
import { findRedirectSession, type RedirectSessionRecord } from './store.js';

// Kept apart from redirect-sessions.ts (which reaches the members domain) so other domains can read a
// session through identity/index.ts without an import cycle.
/** The live redirect session for a raw id from a hosted-page URL, or undefined. */
export async function loadRedirectSession(db: Executor, rawId: string): Promise<RedirectSessionRecord | undefined> {
  if (!rawId || rawId.length > 200) return undefined;
  const record = await findRedirectSession(db, hashSecret(rawId));
  if (!record || Date.parse(record.expiresDate) <= Date.now()) return undefined;
  return record;
}
