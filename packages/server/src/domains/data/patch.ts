import { violation } from '../../http/errors.js';
import { FIELD_SEGMENT } from '../../storage/json-filter.js';
import { cleanValue, isPlainObject, SYSTEM_FIELDS, type ItemData, type Json } from './values.js';

/** Field modifications of patch calls, applied to a copy of the stored data. */

export const MAX_MODIFICATIONS = 100;
export const PATCH_ACTIONS = ['SET_FIELD', 'REMOVE_FIELD', 'INCREMENT_FIELD', 'APPEND_TO_ARRAY', 'REMOVE_FROM_ARRAY'] as const;

export interface FieldModification {
  action: typeof PATCH_ACTIONS[number];
  fieldPath: string;
  value?: Json;
}

const SYSTEM = new Set<string>(SYSTEM_FIELDS);

/** Checks the wire modifications (`setFieldOptions.value`, ...) and returns them in one shape. */
export function readModifications(raw: unknown, argument: string): FieldModification[] {
  if (!Array.isArray(raw) || raw.length === 0) throw violation(argument, 'must be a non-empty array', 'MIN_SIZE');
  if (raw.length > MAX_MODIFICATIONS) throw violation(argument, `must have at most ${MAX_MODIFICATIONS} modifications`, 'MAX_SIZE');
  return raw.map((m: unknown, i) => {
    const at = `${argument}[${i}]`;
    if (!isPlainObject(m)) throw violation(at, 'must be an object', 'FORMAT');
    const action = m.action;
    if (typeof action !== 'string' || !(PATCH_ACTIONS as readonly string[]).includes(action)) throw violation(`${at}.action`, `must be one of ${PATCH_ACTIONS.join(', ')}`, 'INVALID_ENUM_VALUE');
    const fieldPath = m.fieldPath;
    if (typeof fieldPath !== 'string' || !fieldPath.split('.').every((s) => FIELD_SEGMENT.test(s))) throw violation(`${at}.fieldPath`, 'must be a dotted field path', 'FORMAT');
    if (SYSTEM.has(fieldPath.split('.')[0]!)) throw violation(`${at}.fieldPath`, 'system fields cannot be changed', 'FIELD_NOT_ALLOWED');
    const optionsKey = { SET_FIELD: 'setFieldOptions', INCREMENT_FIELD: 'incrementFieldOptions', APPEND_TO_ARRAY: 'appendToArrayOptions', REMOVE_FROM_ARRAY: 'removeFromArrayOptions', REMOVE_FIELD: undefined }[action as FieldModification['action']];
    if (!optionsKey) return { action: action as FieldModification['action'], fieldPath };
    const options = m[optionsKey];
    if (!isPlainObject(options) || !('value' in options)) throw violation(`${at}.${optionsKey}.value`, 'is required', 'REQUIRED_FIELD');
    const value = cleanValue(options.value, `${at}.${optionsKey}.value`);
    if (action === 'INCREMENT_FIELD' && typeof value !== 'number') throw violation(`${at}.${optionsKey}.value`, 'must be a number', 'FORMAT');
    return { action: action as FieldModification['action'], fieldPath, value };
  });
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Applies modifications in order; a type mismatch (increment a text, append to a number) is a 400. */
export function applyModifications(data: ItemData, mods: FieldModification[], argument: string): ItemData {
  const out = structuredClone(data) as Record<string, Json>;
  mods.forEach((m, i) => {
    const segs = m.fieldPath.split('.');
    let node: Record<string, Json> = out;
    for (const s of segs.slice(0, -1)) {
      if (!isPlainObject(node[s])) {
        if (m.action === 'REMOVE_FIELD') return;
        node[s] = {};
      }
      node = node[s] as Record<string, Json>;
    }
    const leaf = segs[segs.length - 1]!;
    const current = Object.prototype.hasOwnProperty.call(node, leaf) ? node[leaf] : undefined;
    const at = `${argument}[${i}]`;
    switch (m.action) {
      case 'SET_FIELD': node[leaf] = m.value!; break;
      case 'REMOVE_FIELD': delete node[leaf]; break;
      case 'INCREMENT_FIELD': {
        if (current !== undefined && current !== null && typeof current !== 'number') throw violation(`${at}.fieldPath`, 'is not a number field', 'FORMAT');
        const next = ((current as number | null | undefined) ?? 0) + (m.value as number);
        node[leaf] = cleanValue(next, `${at}.incrementFieldOptions.value`);
        break;
      }
      case 'APPEND_TO_ARRAY': {
        if (current !== undefined && current !== null && !Array.isArray(current)) throw violation(`${at}.fieldPath`, 'is not an array field', 'FORMAT');
        node[leaf] = [...((current as Json[] | null | undefined) ?? []), m.value!];
        break;
      }
      case 'REMOVE_FROM_ARRAY': {
        if (current === undefined || current === null) break;
        if (!Array.isArray(current)) throw violation(`${at}.fieldPath`, 'is not an array field', 'FORMAT');
        node[leaf] = current.filter((e) => !sameJson(e, m.value));
        break;
      }
    }
  });
  return out;
}
