import { useState } from 'react';
import { useDataCollections } from '@vitrine/react';
import {
  COLLECTION_ID_PATTERN, FIELD_KEY_PATTERN, FIELD_TYPE_CHOICES, FORM_FIELDS_MAX, PERMISSION_ACTIONS, PERMISSION_ROLES, referencedCollection,
  type DataCollection, type DataField,
} from '../lib/data';
import { ErrorAlert } from '../components/Alert';
import { CheckboxField, SelectField, TextField, clearsOutcome, primaryButton, secondaryButton } from '../components/Form';

type Permissions = NonNullable<DataCollection['permissions']>;
type Role = Permissions['read'];
interface FieldDraft { key: string; displayName: string; type: string; required: boolean; referenced: string; isNew: boolean }

/** A new collection's permissions: anyone reads, only the site's staff writes. */
const NEW_PERMISSIONS: Permissions = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' };
/** Collections listed as reference targets (one page; larger sites type the id). */
const REFERENCE_TARGETS_MAX = 100;

export interface CollectionDraft { _id: string; displayName: string; fields: DataField[]; permissions: Permissions }

function draftOf(f: DataField): FieldDraft {
  return { key: f.key, displayName: f.displayName ?? f.key, type: f.type, required: f.required === true, referenced: referencedCollection(f) ?? '', isNew: false };
}

function fieldOf(d: FieldDraft, original: DataField | undefined): DataField {
  const base: DataField = { ...(original ?? {}), key: d.key.trim(), displayName: d.displayName.trim() || d.key.trim(), type: d.type };
  if (d.required) base.required = true; else delete base.required;
  if (d.type === 'REFERENCE') base.typeMetadata = { ...(original?.typeMetadata ?? {}), reference: { referencedCollectionId: d.referenced.trim() } };
  return base;
}

/**
 * Creates a collection (`collection` absent) or edits one: its id (new only), name, fields with
 * type, required and the target of a reference, and who may read, insert, update and remove items.
 * A field's key and type are fixed once it exists, since items already hold values under it.
 */
export function CollectionForm({ collection, onSubmit, state, submitLabel }: {
  collection?: DataCollection; onSubmit: (draft: CollectionDraft) => void; state: { isPending: boolean; error: unknown; reset: () => void }; submitLabel: string;
}) {
  const userFields = (collection?.fields ?? []).filter((f) => !f.systemField);
  const [id, setId] = useState(collection?._id ?? '');
  const [displayName, setDisplayName] = useState(collection?.displayName ?? '');
  const [fields, setFields] = useState<FieldDraft[]>(() => userFields.map(draftOf));
  const [permissions, setPermissions] = useState<Permissions>(collection?.permissions ?? NEW_PERMISSIONS);
  const targets = useDataCollections({ paging: { limit: REFERENCE_TARGETS_MAX } });
  const set = (i: number, patch: Partial<FieldDraft>) => setFields((list) => list.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const submit = () => onSubmit({
    _id: id.trim(), displayName: displayName.trim() || id.trim(), permissions,
    fields: fields.filter((f) => f.key.trim()).map((f) => fieldOf(f, userFields.find((u) => u.key === f.key))),
  });
  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} {...clearsOutcome(state)} aria-label={collection ? 'Edit collection' : 'New collection'} className="space-y-4">
      <div className="grid grid-cols-2 gap-3">
        <TextField label="Collection id" required disabled={Boolean(collection)} pattern={COLLECTION_ID_PATTERN} title="Letters, digits, _ and -" value={id} onChange={(e) => setId(e.target.value)} />
        <TextField label="Display name" maxLength={100} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      </div>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium">Fields</legend>
        {fields.length === 0 && <p className="text-sm text-slate-600">No fields yet: items can still hold any keys.</p>}
        {fields.map((f, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2" data-testid="field-row">
            <TextField label={`Field ${i + 1} key`} required disabled={!f.isNew} pattern={FIELD_KEY_PATTERN} title="A letter or _ then letters, digits or _" value={f.key} onChange={(e) => set(i, { key: e.target.value })} className="w-40" />
            <TextField label={`Field ${i + 1} name`} maxLength={100} value={f.displayName} onChange={(e) => set(i, { displayName: e.target.value })} className="w-40" />
            <SelectField label={`Field ${i + 1} type`} disabled={!f.isNew} value={f.type} onChange={(e) => set(i, { type: e.target.value })} className="w-36">
              {[...new Set([...FIELD_TYPE_CHOICES, f.type])].map((t) => <option key={t} value={t}>{t}</option>)}
            </SelectField>
            {f.type === 'REFERENCE' && (
              <SelectField label={`Field ${i + 1} refers to`} required value={f.referenced} onChange={(e) => set(i, { referenced: e.target.value })} className="w-40">
                <option value="">Choose…</option>
                {[...new Set([...(targets.data?.collections ?? []).map((c) => c._id), ...(f.referenced ? [f.referenced] : [])])].map((c) => <option key={c} value={c}>{c}</option>)}
              </SelectField>
            )}
            <CheckboxField label={`Field ${i + 1} required`} checked={f.required} onChange={(e) => set(i, { required: e.target.checked })} />
            <button type="button" className={secondaryButton} aria-label={`Remove field ${i + 1}`} onClick={() => setFields((list) => list.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {fields.length < FORM_FIELDS_MAX && (
          <button type="button" className={secondaryButton} onClick={() => setFields((list) => [...list, { key: '', displayName: '', type: 'TEXT', required: false, referenced: '', isNew: true }])}>Add field</button>
        )}
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <legend className="mb-1 text-sm font-medium">Permissions</legend>
        {PERMISSION_ACTIONS.map((a) => (
          <SelectField key={a} label={`Who may ${a}`} value={permissions[a]} onChange={(e) => setPermissions((p) => ({ ...p, [a]: e.target.value as Role }))}>
            {PERMISSION_ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </SelectField>
        ))}
      </fieldset>
      <ErrorAlert error={state.error} />
      <button disabled={state.isPending} className={primaryButton}>{submitLabel}</button>
    </form>
  );
}
