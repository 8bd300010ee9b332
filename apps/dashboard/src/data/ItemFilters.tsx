import { useState } from 'react';
import type { DataItemCondition, DataItemOperator } from '@vitrine/react';
import { inputKind, parseInput, type DataField } from '../lib/data';
import { SelectField, TextField, secondaryButton } from '../components/Form';
import { formatDate, ownerTimeZone } from '../lib/time';

/** Comparisons offered per kind of field, with the words shown for them. */
const OPERATORS: Record<DataItemOperator, string> = {
  eq: 'is', ne: 'is not', contains: 'contains', startsWith: 'starts with', gt: 'greater than', ge: 'at least', lt: 'less than', le: 'at most', isEmpty: 'is empty', isNotEmpty: 'is not empty',
};
const TEXT_OPS: DataItemOperator[] = ['contains', 'eq', 'ne', 'startsWith', 'isEmpty', 'isNotEmpty'];
const ORDERED_OPS: DataItemOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'isEmpty', 'isNotEmpty'];
const BOOLEAN_OPS: DataItemOperator[] = ['eq', 'isEmpty', 'isNotEmpty'];
/** Conditions one query stacks at most (each is one more clause for the server to evaluate). */
export const CONDITIONS_MAX = 5;

function operatorsFor(field: DataField | undefined): DataItemOperator[] {
  const kind = field ? inputKind(field.type) : 'text';
  if (kind === 'number' || kind === 'datetime') return ORDERED_OPS;
  if (kind === 'boolean') return BOOLEAN_OPS;
  return TEXT_OPS;
}

export function conditionText(c: DataItemCondition, fields: DataField[]): string {
  const name = fields.find((f) => f.key === c.fieldName)?.displayName || c.fieldName;
  const shown = c.value === undefined ? '' : ` ${c.value instanceof Date ? formatDate(c.value) : JSON.stringify(c.value)}`;
  return `${name} ${OPERATORS[c.op]}${shown}`;
}

/** Adds conditions (field, comparison, typed value) to the grid's query; each shows as a removable chip. */
export function ItemFilters({ fields, conditions, onChange }: { fields: DataField[]; conditions: DataItemCondition[]; onChange: (next: DataItemCondition[]) => void }) {
  const [fieldKey, setFieldKey] = useState(fields[0]?.key ?? '');
  const field = fields.find((f) => f.key === fieldKey);
  const ops = operatorsFor(field);
  const [op, setOp] = useState<DataItemOperator>(ops[0]!);
  const [value, setValue] = useState<string | boolean>('');
  const [error, setError] = useState<string>();
  const chosenOp = ops.includes(op) ? op : ops[0]!;
  const needsValue = chosenOp !== 'isEmpty' && chosenOp !== 'isNotEmpty';
  const kind = field ? inputKind(field.type) : 'text';
  const add = () => {
    if (!field) return;
    setError(undefined);
    let parsed: unknown;
    try {
      // Text comparisons take the typed text as it is; the others take the field's own type.
      parsed = !needsValue ? undefined : chosenOp === 'contains' || chosenOp === 'startsWith' ? String(value) : parseInput(field, value);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    if (needsValue && parsed === undefined) { setError('Enter a value to compare with.'); return; }
    onChange([...conditions, { fieldName: field.key, op: chosenOp, ...(needsValue ? { value: parsed } : {}) }]);
    setValue('');
  };
  return (
    <div className="mb-3 space-y-2">
      <form aria-label="Filter items" onSubmit={(e) => { e.preventDefault(); add(); }} className="flex flex-wrap items-end gap-3">
        <SelectField label="Filter field" value={fieldKey} onChange={(e) => { setFieldKey(e.target.value); setValue(''); }}>
          {fields.map((f) => <option key={f.key} value={f.key}>{f.displayName || f.key}</option>)}
        </SelectField>
        <SelectField label="Comparison" value={chosenOp} onChange={(e) => setOp(e.target.value as DataItemOperator)}>
          {ops.map((o) => <option key={o} value={o}>{OPERATORS[o]}</option>)}
        </SelectField>
        {needsValue && (kind === 'boolean'
          ? <SelectField label="Value" value={value === true ? 'true' : 'false'} onChange={(e) => setValue(e.target.value === 'true')}><option value="true">checked</option><option value="false">not checked</option></SelectField>
          : <TextField label={kind === 'datetime' ? `Value (${ownerTimeZone()})` : 'Value'} type={kind === 'number' ? 'number' : kind === 'datetime' ? 'datetime-local' : 'text'} step={kind === 'number' ? 'any' : undefined}
              value={typeof value === 'string' ? value : ''} onChange={(e) => setValue(e.target.value)} />)}
        <button disabled={conditions.length >= CONDITIONS_MAX || !field} className={secondaryButton}>Add filter</button>
      </form>
      {error && <p role="alert" className="text-sm text-rose-800">{error}</p>}
      {conditions.length > 0 && (
        <ul aria-label="Active filters" className="flex flex-wrap gap-2 text-sm">
          {conditions.map((c, i) => (
            <li key={i} data-testid="filter-chip" className="flex items-center gap-2 rounded-full border border-slate-300 bg-white px-3 py-0.5">
              {conditionText(c, fields)}
              <button type="button" aria-label={`Remove filter ${conditionText(c, fields)}`} onClick={() => onChange(conditions.filter((_, j) => j !== i))}>×</button>
            </li>
          ))}
          <li><button type="button" className={secondaryButton} onClick={() => onChange([])}>Clear filters</button></li>
        </ul>
      )}
    </div>
  );
}
