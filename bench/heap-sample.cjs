/**
 * A preload that runs V8's sampling heap profiler in the server process from its start, counting
 * objects the garbage collector has already freed too (what a request allocates, not only what it
 * keeps), and when the process exits writes the 40 functions that allocated most to $HEAP_SAMPLE_OUT
 * (default: heap-sample.txt in the working directory), beside the whole profile as
 * `<out>.heapprofile` (open it in Chrome DevTools, Memory panel). It is how the allocation of an
 * estimate in docs/performance.md was measured: garbage collection shows in a CPU profile as one
 * block, this says who made the garbage. Only the server process (`vitrine.js`) is sampled.
 *
 *   npm run bench -- --no-build --scenarios estimate-totals --node-flags=--require=./bench/heap-sample.cjs
 *
 * With HEAP_SAMPLE_SURVIVORS=1 it counts only objects that outlived a young-generation collection
 * (promoted to the old generation, whether or not a full collection freed them later): what makes
 * full collections run. A request's own objects should die young; whatever shows here is held past
 * its request (a buffer, a cache, a timer).
 *
 * Sampling costs a little CPU: compare allocations with each other, not the run's req/s with an
 * unsampled run. Divide by the requests of the run (the request log counts them) for bytes per request.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

const TOP = 40;
/** About one sample per this many bytes allocated. */
const SAMPLING_INTERVAL_BYTES = 8 * 1024;

if (process.argv[1] && path.basename(process.argv[1]) === 'vitrine.js') {
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL_BYTES, includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.HEAP_SAMPLE_SURVIVORS !== '1',
  });
  process.on('exit', () => {
    // An in-process session answers synchronously, as an exit handler needs.
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (err) return;
      const out = process.env.HEAP_SAMPLE_OUT ?? 'heap-sample.txt';
      fs.writeFileSync(`${out}.heapprofile`, JSON.stringify(result.profile));
      /** @type {Map<string, number>} */
      const bytes = new Map();
      let total = 0;
      const walk = (node) => {
        const { functionName, url, lineNumber } = node.callFrame;
        const where = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
        bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
        total += node.selfSize;
        for (const child of node.children) walk(child);
      };
      walk(result.profile.head);
      const lines = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([where, n]) =>
        `${(n / 1048576).toFixed(1).padStart(9)} MB ${((n / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
      fs.writeFileSync(out, `${(total / 1048576).toFixed(1)} MB allocated in all (sampled)\n${lines.join('\n')}\n`);
    });
  });
}
