/**
 * The costliest functions of a V8 CPU profile (`--cpu-prof` of the suite), over a window of it: a
 * profile spans seeding, warm-up and every measurement, and only the measured window says where a
 * request's time goes.
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [--from-end 10] [--to-end 0] [--top 40] [--by file] [--inclusive]
 *
 * `--from-end`/`--to-end`: the window, in seconds before the profile's end (default: the last 10 s).
 * `--by file`: self time summed per source file instead of per function. `--inclusive`: time with the
 * callees (a function's whole subtree), so a thin layer that calls everything shows as such.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'from-end': { type: 'string', default: '10' },
    'to-end': { type: 'string', default: '0' },
    top: { type: 'string', default: '40' },
    by: { type: 'string', default: 'function' },
    inclusive: { type: 'boolean', default: false },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [--from-end s] [--to-end s] [--top n] [--by file] [--inclusive]');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const shortUrl = (url: string) => url.replace(/^.*\/node_modules\//, '~/').replace(/^.*\/packages\//, '').replace(/^file:\/\//, '');
const keyOf = (n: ProfileNode) => values.by === 'file'
  ? shortUrl(n.callFrame.url) || `(${n.callFrame.functionName || 'native'})`
  : `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

// Sample times are the start time plus the running sum of the deltas, in microseconds.
const windowStart = profile.endTime - Number(values['from-end']) * 1e6;
const windowEnd = profile.endTime - Number(values['to-end']) * 1e6;
const totals = new Map<string, number>();
let t = profile.startTime;
let inWindow = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (t < windowStart || t > windowEnd) continue;
  inWindow++;
  let node = byId.get(profile.samples[i]!);
  const seen = new Set<string>();
  while (node) {
    const key = keyOf(node);
    // Inclusive time counts a function once per sample however deep it recurses.
    if (!seen.has(key)) totals.set(key, (totals.get(key) ?? 0) + 1);
    seen.add(key);
    if (!values.inclusive) break;
    const up = parent.get(node.id);
    node = up === undefined ? undefined : byId.get(up);
  }
}

const idle = [...totals].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, n]) => s + n, 0);
console.log(`${inWindow} samples in the window, ${((1 - idle / Math.max(inWindow, 1)) * 100).toFixed(1)}% not idle`);
for (const [key, n] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${((n / Math.max(inWindow, 1)) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
