import { conflict, violation } from '../../../http/errors.js';

/**
 * Optimistic concurrency of updates: the caller names the revision it read; a write against another
 * one is a 409 and changes nothing.
 */
export function expectRevision(given: string | undefined, current: number, field: string): number {
  if (given === undefined) throw violation(field, 'is required', 'REQUIRED_FIELD');
  if (Number(given) !== current) throw conflict('REVISION_MISMATCH', `The entity is at revision ${current}`, { currentRevision: String(current) });
  return current;
}

/** The entity changed between our read and our write (a concurrent update won). */
export const changedMeanwhile = (id: string) => conflict('REVISION_MISMATCH', 'The entity changed meanwhile; read it again', { id });

/** A body id that disagrees with the path's id. */
export function samePathId(bodyId: string | undefined, pathId: string, field: string): void {
  if (bodyId !== undefined && bodyId !== pathId) throw violation(field, 'must match the id in the path', 'FORMAT');
}

/** An ISO instant normalized to UTC text (stored dates compare as text). */
export function isoUtc(text: string | null | undefined): string | null {
  return text == null ? null : new Date(text).toISOString();
}
