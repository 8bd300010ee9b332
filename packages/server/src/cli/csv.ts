/**
 * A small RFC 4180 CSV reader for imports: the first row names the columns; fields may be quoted
 * ("a, b"), quotes inside quoted fields are doubled (""), quoted fields may span lines; CRLF or LF.
 */
export class CsvError extends Error {}

/** Rows of the file as objects keyed by the header; empty cells are left out. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows = readRows(text.startsWith('\uFEFF') ? text.slice(1) : text);
  const header = rows.shift();
  if (!header) return [];
  const names = header.map((h) => h.trim());
  const seen = new Set<string>();
  for (const name of names) {
    if (!name) throw new CsvError('CSV header has an empty column name');
    if (seen.has(name)) throw new CsvError(`CSV header names "${name}" twice`);
    seen.add(name);
  }
  return rows
    .filter((cells) => !(cells.length === 1 && cells[0] === ''))
    .map((cells, i) => {
      if (cells.length > names.length) throw new CsvError(`CSV row ${i + 2} has ${cells.length} fields, the header ${names.length}`);
      const row: Record<string, string> = {};
      cells.forEach((cell, c) => { if (cell !== '') row[names[c]!] = cell; });
      return row;
    });
}

function readRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (field !== '') throw new CsvError(`CSV line ${line}: a quote inside an unquoted field`);
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      line++;
    } else {
      field += ch;
    }
  }
  if (quoted) throw new CsvError(`CSV line ${line}: a quoted field is not closed`);
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
