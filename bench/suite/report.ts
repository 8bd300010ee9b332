/** Writes the suite's results: a Markdown table, the raw JSON and an SVG bar chart of req/s. */
import fs from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './common.js';

export interface Row {
  database: 'sqlite' | 'postgres';
  workers: number;
  size: number;
  scenario: string;
  title: string;
  unit: string;
  result: LoadResult;
  baseline: LoadResult;
  /** result.rps / baseline.rps, both measured back to back in this run. */
  ratio: number;
  /** The target ratio (or absolute rate) this scenario is held to, when it has one. */
  target?: { ratio?: number; rps?: number };
  /** Server CPU microseconds per counted unit (all its processes), from /proc. */
  serverCpuMicros: number;
  /** The baseline server's CPU microseconds per request in its measurement. */
  baselineCpuMicros: number;
  /** Largest resident set of the server (all its processes) sampled during the scenario, MB. */
  rssMb: number;
}

export interface Run {
  startedAt: string;
  node: string;
  cpus: number;
  loadAverage: number[];
  connections: number;
  seconds: number;
  /** Warm-up bounds of every measurement: at least `min` seconds, then on until settled or `max`. */
  warmup: { min: number; max: number };
  workersNote: string;
  generatorNote: string;
  rows: Row[];
}

const pct = (n: number) => `${(n * 100).toFixed(0)}%`;
const fixed = (n: number) => n.toFixed(0);

function verdict(row: Row): string {
  if (!row.target) return '';
  if (row.target.ratio !== undefined) return row.ratio >= row.target.ratio ? `met (>= ${pct(row.target.ratio)})` : `MISSED (>= ${pct(row.target.ratio)})`;
  if (row.target.rps !== undefined) return row.result.rps >= row.target.rps ? `met (>= ${row.target.rps}/s)` : `MISSED (>= ${row.target.rps}/s)`;
  return '';
}

function warmupText(w: Run['warmup']): string {
  return w.max > w.min
    ? `a warm-up of at least ${w.min} s, continued in 3 s windows until the CPU per unit of two in a row agreed within 8% (at most ${w.max} s; column *warm-up s*, \`*\` where it had not settled)`
    : `a warm-up of ${w.min} s`;
}

function warmupCell(r: LoadResult): string {
  return r.warmup ? `${r.warmup.seconds}${r.warmup.settled === false ? '*' : ''}` : '';
}

export function markdown(run: Run): string {
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${run.startedAt}: Node ${run.node}, ${run.cpus} CPUs, load average at start ${run.loadAverage.map((n) => n.toFixed(2)).join(' / ')}.`,
    `Load: autocannon in its own process, ${run.connections} connections, ${run.seconds} s per measurement after ${warmupText(run.warmup)}.`,
    'Every figure sits beside the baseline (bare Hono + better-sqlite3 answering a product-sized JSON document by id) measured',
    'right before it in the same run; the ratio is the comparable number, absolute figures move with the machine.',
    '',
    `- Load generator: ${run.generatorNote}`,
    `- Workers: ${run.workersNote}`,
    '',
    '| database | workers | size | scenario | req/s | baseline req/s | ratio | target | p50 ms | p99 ms | server CPU us/unit | CPU ratio | RSS MB | errors | gen. CPU | warm-up s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of run.rows) {
    const errors = r.result.errors + r.result.non2xx;
    lines.push(`| ${r.database} | ${r.workers} | ${r.size.toLocaleString('en-US')} | ${r.title}${r.unit !== 'requests' ? ` (${r.unit})` : ''} | ${fixed(r.result.rps)} | ${fixed(r.baseline.rps)} | ${pct(r.ratio)} | ${verdict(r)} | ${r.result.p50.toFixed(1)} | ${r.result.p99.toFixed(1)} | ${fixed(r.serverCpuMicros)} | ${pct(r.baselineCpuMicros / r.serverCpuMicros)} | ${fixed(r.rssMb)} | ${errors}${r.result.firstError ? ` (${r.result.firstError.slice(0, 80).replaceAll('|', '/')})` : ''} | ${r.result.generatorCpu.toFixed(2)} | ${warmupCell(r.result)} |`);
  }
  lines.push('', 'Columns: *server CPU us/unit* is the CPU time of all server processes per counted unit (steadier than req/s on a busy machine);',
    '*CPU ratio* is the baseline\'s CPU per request over ours: the share of the baseline\'s rate we would reach with a core each;',
    '*gen. CPU* is the cores the load generator itself used (near 1.00 it could be the limit); *RSS MB* is the largest resident set of',
    'the server processes sampled during the scenario.', '');
  return lines.join('\n');
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Horizontal bars: per group (database, workers, size) each scenario's req/s beside its baseline. */
export function svg(run: Run): string {
  const BAR = 14;
  const GAP = 8;
  const LEFT = 330;
  const WIDTH = 980;
  const scale = (WIDTH - LEFT - 150) / Math.max(1, ...run.rows.map((r) => Math.max(r.result.rps, r.baseline.rps)));
  const parts: string[] = [];
  let y = 30;
  let group = '';
  for (const r of run.rows) {
    const g = `${r.database}, ${r.workers} process${r.workers > 1 ? 'es' : ''}, ${r.size.toLocaleString('en-US')} products/items`;
    if (g !== group) {
      group = g;
      y += 10;
      parts.push(`<text x="10" y="${y}" font-weight="bold">${esc(g)}</text>`);
      y += 10;
    }
    const label = `${r.title}${r.unit !== 'requests' ? ` (${r.unit})` : ''}`;
    parts.push(`<text x="${LEFT - 8}" y="${y + BAR - 3}" text-anchor="end">${esc(label.length > 48 ? `${label.slice(0, 47)}…` : label)}</text>`);
    parts.push(`<rect x="${LEFT}" y="${y}" width="${Math.max(1, r.baseline.rps * scale).toFixed(1)}" height="${BAR / 2 - 1}" fill="#c8c8c8"/>`);
    parts.push(`<rect x="${LEFT}" y="${y + BAR / 2}" width="${Math.max(1, r.result.rps * scale).toFixed(1)}" height="${BAR / 2}" fill="#2f6fb0"/>`);
    parts.push(`<text x="${LEFT + Math.max(r.result.rps, r.baseline.rps) * scale + 6}" y="${y + BAR - 3}">${fixed(r.result.rps)}/s (${pct(r.ratio)})</text>`);
    y += BAR + GAP;
  }
  const height = y + 30;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="16" font-size="13" font-weight="bold">req/s per scenario (blue) beside the same-run baseline (grey): bare Hono + better-sqlite3 by id</text>`,
    ...parts,
    `<text x="10" y="${height - 10}" fill="#555">${esc(run.startedAt)}; ${run.cpus} CPUs; ${esc(run.generatorNote)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

export function writeResults(dir: string, run: Run): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'RESULTS.md'), markdown(run));
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(run, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'results.svg'), svg(run));
}
