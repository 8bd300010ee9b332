import { useMemo, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useDataItems, useRemoveDataItem, useUpdateDataItem, type DataItemCondition } from '@vitrine/react';
import { cellText, inputKind, inputText, parseInput, referenceText, referencedCollection, type DataCollection, type DataField, type DataItem } from '../lib/data';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { SelectField, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { ItemFilters } from './ItemFilters';

export const ITEMS_PAGE_SIZE = 20;
/** Longest cell text before it is cut (the full value is in the title). */
const CELL_MAX = 80;
/** The system fields the grid sorts and filters on besides the user fields. */
const CREATED: DataField = { key: '_createdDate', displayName: 'Created', type: 'DATETIME' };

export function userFields(c: DataCollection): DataField[] {
  return c.fields.filter((f) => !f.systemField);
}

/**
 * The items of a collection: filter (stacked conditions), sort by any field, 20 a page, edit a row in
 * place (Enter saves, Escape cancels), delete after confirmation. Reference fields are expanded and
 * show the referenced item's title with a link to its collection.
 */
export function ItemsGrid({ collection }: { collection: DataCollection }) {
  const fields = userFields(collection);
  const [offset, setOffset] = useState(0);
  const [conditions, setConditions] = useState<DataItemCondition[]>([]);
  const [sortField, setSortField] = useState('_createdDate');
  const [order, setOrder] = useState<'ASC' | 'DESC'>('DESC');
  const [editing, setEditing] = useState<{ id: string; values: Record<string, string | boolean> }>();
  const [editError, setEditError] = useState<Error>();
  const include = useMemo(() => fields.filter((f) => f.type === 'REFERENCE').map((f) => f.key), [fields]);
  const sort = useMemo(() => [{ fieldName: sortField, order }], [sortField, order]);
  const items = useDataItems(collection._id, { sort, where: conditions, include, skip: offset, limit: ITEMS_PAGE_SIZE, returnTotalCount: true, keepPrevious: true });
  const remove = useRemoveDataItem();
  const update = useUpdateDataItem();

  const startEdit = (item: DataItem) => {
    update.reset(); setEditError(undefined);
    setEditing({ id: item._id, values: Object.fromEntries(fields.map((f) => [f.key, inputText(f, item[f.key])])) });
  };
  const saveEdit = (item: DataItem) => {
    if (!editing) return;
    setEditError(undefined);
    const next: Record<string, unknown> & { _id: string } = { _id: item._id };
    try {
      for (const f of fields) {
        const v = parseInput(f, editing.values[f.key] ?? '');
        if (v !== undefined) next[f.key] = v;
      }
    } catch (error) {
      setEditError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    update.mutate({ collectionId: collection._id, item: next }, { onSuccess: () => setEditing(undefined) });
  };
  const keys = (item: DataItem) => (e: KeyboardEvent) => {
    if (e.key === 'Enter') { e.preventDefault(); saveEdit(item); }
    if (e.key === 'Escape') { e.preventDefault(); setEditing(undefined); }
  };
  const text = (v: unknown) => { const t = cellText(v); return <span title={t}>{t.length > CELL_MAX ? `${t.slice(0, CELL_MAX)}…` : t}</span>; };
  const cell = (f: DataField) => (i: DataItem) => {
    if (editing?.id === i._id) {
      const value = editing.values[f.key];
      const set = (v: string | boolean) => setEditing((e) => (e ? { ...e, values: { ...e.values, [f.key]: v } } : e));
      const label = `${f.displayName || f.key} of item ${i._id}`;
      return inputKind(f.type) === 'boolean'
        ? <input type="checkbox" aria-label={label} checked={value === true} onChange={(e) => set(e.target.checked)} onKeyDown={keys(i)} />
        : <input aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => set(e.target.value)} onKeyDown={keys(i)}
            type={inputKind(f.type) === 'number' ? 'number' : inputKind(f.type) === 'datetime' ? 'datetime-local' : 'text'} step={inputKind(f.type) === 'number' ? 'any' : undefined}
            className="w-full min-w-24 rounded border border-slate-300 px-2 py-1" />;
    }
    const target = referencedCollection(f);
    if (target && i[f.key] !== undefined && i[f.key] !== null) return <Link to={`/data/${encodeURIComponent(target)}`} className="underline">{referenceText(i[f.key])}</Link>;
    return text(i[f.key]);
  };
  const columns: Column<DataItem>[] = [
    ...fields.map((f): Column<DataItem> => ({ header: f.displayName || f.key, cell: cell(f) })),
    { header: 'Created', cell: (i) => text(i._createdDate) },
    { header: 'Id', cell: (i) => <span className="font-mono text-xs">{i._id}</span> },
    {
      header: 'Actions',
      cell: (i) => (editing?.id === i._id
        ? (
          <span className="flex gap-1">
            <button type="button" className={secondaryButton} disabled={update.isPending} onClick={() => saveEdit(i)}>Save</button>
            <button type="button" className={secondaryButton} onClick={() => setEditing(undefined)}>Cancel</button>
          </span>
        ) : (
          <span className="flex gap-1">
            <button type="button" className={secondaryButton} aria-label={`Edit item ${i._id}`} onClick={() => startEdit(i)}>Edit</button>
            <ConfirmButton label="Delete" ariaLabel={`Delete item ${i._id}`} title="Delete item" confirmLabel="Delete item"
              message={`Delete item ${i._id} from ${collection._id}? This cannot be undone.`} onConfirm={() => remove.mutateAsync({ collectionId: collection._id, itemId: i._id })} />
          </span>
        )),
    },
  ];
  const sortable = [...fields.filter((f) => inputKind(f.type) !== 'json' || f.type === 'REFERENCE'), CREATED];
  return (
    <div className="mt-6">
      <ItemFilters fields={[...fields, CREATED]} conditions={conditions} onChange={(next) => { setConditions(next); setOffset(0); }} />
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <SelectField label="Sort items by" value={sortField} onChange={(e) => { setSortField(e.target.value); setOffset(0); }}>
          {sortable.map((f) => <option key={f.key} value={f.key}>{f.displayName || f.key}</option>)}
        </SelectField>
        <SelectField label="Order" value={order} onChange={(e) => { setOrder(e.target.value === 'ASC' ? 'ASC' : 'DESC'); setOffset(0); }}>
          <option value="ASC">Ascending</option>
          <option value="DESC">Descending</option>
        </SelectField>
        <span className="ml-auto text-sm text-slate-600" data-testid="item-total">{items.data?.totalCount ?? 0} items</span>
      </div>
      <ErrorAlert error={editError ?? update.error} />
      <DataTable label="Items" columns={columns} rows={items.data?.items} rowKey={(i) => i._id} rowTestId="data-item-row"
        isLoading={items.isLoading} error={items.error} empty={conditions.length ? 'No item matches the filters.' : 'No items in this collection.'} />
      {items.data && <Pager offset={offset} limit={ITEMS_PAGE_SIZE} count={items.data.items.length} total={items.data.totalCount} onChange={setOffset} />}
    </div>
  );
}
