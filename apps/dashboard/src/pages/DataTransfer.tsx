import { useState } from 'react';
import { useExportDataItems, useImportDataItems, type TransferProgress } from '@vitrine/react';
import { displayValue, parseInput, type DataCollection, type DataField } from '../lib/data';
import { parseCsv, toCsv } from '../lib/csv';
import { ErrorAlert } from '../components/Alert';
import { secondaryButton } from '../components/Form';

/** Rows read from one CSV file at most (the file is parsed in the browser). */
export const CSV_MAX_ROWS = 50_000;

/** CSV rows -> items: the header names field keys (`_id` kept, unknown columns refused), values typed by field. */
export function rowsToItems(rows: string[][], fields: DataField[]): Record<string, unknown>[] {
  const [header, ...body] = rows;
  if (!header) throw new Error('The file is empty');
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const unknown = header.filter((h) => h !== '_id' && !byKey.has(h));
  if (unknown.length) throw new Error(`Unknown columns: ${unknown.join(', ')}`);
  if (body.length > CSV_MAX_ROWS) throw new Error(`At most ${CSV_MAX_ROWS} rows per file`);
  return body.map((cells, r) => {
    const item: Record<string, unknown> = {};
    header.forEach((key, c) => {
      const raw = cells[c] ?? '';
      if (key === '_id') { if (raw) item._id = raw; return; }
      try {
        const value = parseInput(byKey.get(key)!, byKey.get(key)!.type === 'BOOLEAN' ? raw.toLowerCase() === 'true' : raw);
        if (value !== undefined) item[key] = value;
      } catch (error) {
        throw new Error(`row ${r + 2}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return item;
  });
}

/** Export every item as CSV, and import a CSV (header row = field keys) in chunks, both with progress. */
export function DataTransfer({ collection, fields }: { collection: DataCollection; fields: DataField[] }) {
  const exporter = useExportDataItems();
  const importer = useImportDataItems();
  const [progress, setProgress] = useState<TransferProgress & { what: string }>();
  const [summary, setSummary] = useState<string>();
  const [fileError, setFileError] = useState<Error>();
  const exportCsv = async () => {
    setSummary(undefined);
    const all = await exporter.mutateAsync({ collectionId: collection._id, onProgress: (p) => setProgress({ ...p, what: 'Exporting' }) });
    const header = ['_id', ...fields.map((f) => f.key), '_createdDate'];
    const csv = toCsv(header, all.map((i) => header.map((k) => (k === '_createdDate' && i._createdDate instanceof Date ? i._createdDate.toISOString() : displayValue(i[k])))));
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    link.download = `${collection._id}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
    setSummary(`Exported ${all.length} items.`);
  };
  const importCsv = async (file: File) => {
    setSummary(undefined);
    setFileError(undefined);
    let rows: Record<string, unknown>[];
    try {
      rows = rowsToItems(parseCsv(await file.text()), fields);
    } catch (error) {
      setFileError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const res = await importer.mutateAsync({ collectionId: collection._id, rows, onProgress: (p) => setProgress({ ...p, what: 'Importing' }) });
    setSummary([`Imported ${res.inserted} items`, res.skipped ? `${res.skipped} skipped (id exists)` : '', res.failed ? `${res.failed} failed` : ''].filter(Boolean).join(', ') + '.'
      + (res.errors.length ? ` ${res.errors.join('; ')}` : ''));
  };
  const busy = exporter.isPending || importer.isPending;
  return (
    <section aria-label="CSV import and export" className="mb-4 flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white p-3 text-sm">
      <button type="button" className={secondaryButton} disabled={busy} onClick={() => { void exportCsv().catch(() => undefined); }}>Export CSV</button>
      <label className="flex items-center gap-2">Import CSV
        <input type="file" accept=".csv,text/csv" disabled={busy} className="text-sm"
          onChange={(e) => { const f = e.target.files?.[0]; e.target.value = ''; if (f) void importCsv(f).catch(() => undefined); }} />
      </label>
      {busy && progress && (
        <span className="flex items-center gap-2">
          <progress aria-label={`${progress.what} progress`} max={Math.max(progress.total, 1)} value={progress.done} className="w-40" />
          {progress.what} {progress.done} of {progress.total}
        </span>
      )}
      {summary && <p role="status" data-testid="transfer-summary" className="basis-full">{summary}</p>}
      <div className="basis-full"><ErrorAlert error={fileError ?? importer.error ?? exporter.error} /></div>
    </section>
  );
}
