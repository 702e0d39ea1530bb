// Loads a timeline written by `kcraft eval --timeline` into Chrome DevTools' trace engine (npm
// @paulirish/trace_engine, the parser of the DevTools Performance panel) and checks what a kernel writer
// would see: one named track per unit, each track's slices adding up to the unit's performance counter,
// and, for the double-buffered baseline gemm, the DMA engine busy while the matrix unit computes.
// Usage: node trace_viewer_test.mjs <kcraft binary> <work dir>
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';

import {analyzeEvents} from '@paulirish/trace_engine/analyze-trace.mjs';

const [kcraft, work] = process.argv.slice(2);
fs.mkdirSync(work, {recursive: true});

function kcraftJson(args) {
  return JSON.parse(execFileSync(kcraft, ['--json', ...args], {encoding: 'utf8', maxBuffer: 1 << 28}));
}

// Runs the baseline kernel of a task with --timeline; returns the eval report and the loaded trace.
async function timelineOf(task, config, hw, platform = 'systolic') {
  const kernel = path.join(work, `${platform}_${task}_${config}_${hw}.s`);
  const trace = path.join(work, `${platform}_${task}_${config}_${hw}.json`);
  fs.writeFileSync(kernel, execFileSync(kcraft, ['baseline', platform, task, '--config', config, '--hw', hw]));
  const report = kcraftJson(['eval', platform, task, kernel, '--config', config, '--hw', hw, '--timeline', trace]);
  assert.equal(report.verdict, 'pass', report.headline);
  const json = JSON.parse(fs.readFileSync(trace, 'utf8'));
  const {parsedTrace} = await analyzeEvents(json.traceEvents);
  const threads = new Map();
  for (const [, proc] of parsedTrace.data.Renderer.processes) {
    for (const [, thread] of proc.threads) threads.set(thread.name, thread.entries);
  }
  return {report, json, threads};
}

// ts and dur are microseconds with one cycle shown as one nanosecond.
const cycles = (us) => Math.round(us * 1000);

function intervals(entries) {
  return entries.map((e) => [cycles(e.ts), cycles(e.ts + e.dur)]).sort((a, b) => a[0] - b[0]);
}

function overlap(a, b) {
  let i = 0, j = 0, total = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i][0], b[j][0]), hi = Math.min(a[i][1], b[j][1]);
    if (lo < hi) total += hi - lo;
    if (a[i][1] < b[j][1]) ++i; else ++j;
  }
  return total;
}

const unitCounters = {
  'vector unit': 'vector_busy',
  'special functions': 'sfu_busy',
  'matrix unit': 'matrix_busy',
  'systolic array': 'array_active',
  'DMA engine': 'dma_busy',
};

for (const [task, config, hw] of [['gemm', 'C2', 'default'], ['softmax', 'C2', 'small']]) {
  test(`${task} ${config} on ${hw}: the trace engine sees every unit, with the counters' totals`, async () => {
    const {report, json, threads} = await timelineOf(task, config, hw);
    assert.ok(threads.has('issue'), [...threads.keys()].join(', '));
    for (const [track, counter] of Object.entries(unitCounters)) {
      const busy = report.counters[counter];
      if (busy === 0) continue;
      assert.ok(threads.has(track), `no track '${track}' though ${counter} = ${busy}`);
      const sum = threads.get(track).reduce((s, e) => s + cycles(e.dur), 0);
      assert.equal(sum, busy, `${track}: slices add up to ${sum}, ${counter} is ${busy}`);
    }
    // The issue track: one slice per instruction plus the stalls, at most one thing per cycle.
    const issue = threads.get('issue');
    const stalls = ['stall_dependency', 'stall_fp_pending', 'stall_unit_busy', 'stall_drain']
                       .reduce((s, c) => s + report.counters[c], 0);
    assert.equal(issue.reduce((s, e) => s + cycles(e.dur), 0), report.counters.instructions + stalls);
    assert.equal(json.otherData.cycles, report.cycles);
  });
}

test('the double-buffered gemm baseline: DMA overlaps the matrix unit', async () => {
  const {report, threads} = await timelineOf('gemm', 'C3', 'default');
  const dma = intervals(threads.get('DMA engine'));
  const matrix = intervals(threads.get('matrix unit'));
  const both = overlap(dma, matrix);
  assert.ok(both > 0.25 * report.counters.dma_busy,
            `DMA busy ${report.counters.dma_busy} cycles, only ${both} of them while the matrix unit works`);
});

// The vliw tile: one track per bundle slot, each adding up to its slot counter; the issue track holds every
// bundle and every stall cycle.
for (const [task, config, hw] of [['softmax', 'C2', 'default'], ['gemm', 'C2', 'small']]) {
  test(`vliw ${task} ${config} on ${hw}: slot tracks add up to the slot counters`, async () => {
    const {report, json, threads} = await timelineOf(task, config, hw, 'vliw');
    const slots = {ls0: 'load/store', ls1: 'load/store', vec: 'vector', scl: 'scalar', ctl: 'control'};
    for (const [slot, noun] of Object.entries(slots)) {
      const track = `${slot} (${noun} slot)`;
      const used = report.counters[`ops_${slot}`];
      if (used === 0) continue;
      assert.ok(threads.has(track), `no track '${track}' though ops_${slot} = ${used}`);
      assert.equal(threads.get(track).reduce((s, e) => s + cycles(e.dur), 0), used, track);
    }
    const stalls = ['stall_bank_conflict', 'stall_lock_wait', 'stall_dma_queue', 'stall_drain']
                       .reduce((s, c) => s + report.counters[c], 0);
    const issue = threads.get('issue');
    assert.equal(issue.reduce((s, e) => s + cycles(e.dur), 0), report.counters.bundles + stalls);
    assert.ok(threads.has('DRAM port'));
    assert.equal(json.otherData.cycles, report.cycles);
  });
}
