// Load test of `kcraft serve` with the official MCP TypeScript SDK's Streamable HTTP client: N concurrent
// clients, each a full agent loop (list_tasks, select_task, write_code, check_syntax, run_eval, profile,
// submit) on every platform for R rounds, on loopback. Stops by itself; exits non-zero on any failure.
//
//   node serve_load_test.mjs <kcraft> [--clients N] [--rounds R] [--jobs J] [--report FILE]
//                                     [--kill-restart]   kill the server mid-load, restart it, check
//
// Checks: every run_eval verdict equals `kcraft eval`'s on the same kernel (each client sends the passing
// baseline kernel or a broken one, by turns); every call is answered exactly once (the SDK matches replies
// to request ids; the count of answers equals the count of calls, and the results file holds each
// acknowledged submission exactly once); the server's RSS stays flat across rounds (after the first);
// throughput and latency percentiles are printed (and written to --report as JSON).
// With --kill-restart: the server is SIGKILLed while clients are mid-round; every pending call must fail
// with an error (no hang), every submission acknowledged before the kill must be in the results file,
// and after a restart on the same results file new sessions work.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const args = process.argv.slice(2);
const kcraft = args[0];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const clients = Number(option("--clients", "32"));
const rounds = Number(option("--rounds", "3"));
const jobs = Number(option("--jobs", "2"));
const reportFile = option("--report", "");
const killRestart = args.includes("--kill-restart");
if (!kcraft) {
  console.error("usage: node serve_load_test.mjs <kcraft> [--clients N] [--rounds R] [--jobs J] [--kill-restart]");
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "kcraft-serve-load-"));
const token = "load-test-token-" + Math.random().toString(16).slice(2) + "0123456789";
writeFileSync(join(dir, "token"), token + "\n");
const resultsFile = join(dir, "results.jsonl");

// ---- expected verdicts: `kcraft eval` on the same kernels

const platforms = [...new Set(JSON.parse(execFileSync(kcraft, ["platforms", "--json"], { encoding: "utf8" })).map((c) => c.platform))];
const kernels = {};  // platform -> { good: {source, verdict}, broken: {...} }
for (const p of platforms) {
  const baseline = JSON.parse(execFileSync(kcraft, ["baseline", p, "relu", "--config", "C1", "--json"], { encoding: "utf8" }));
  const fileName = baseline.file_name;
  const ext = fileName.slice(fileName.lastIndexOf("."));
  kernels[p] = {};
  for (const [kind, source] of [["good", baseline.source], ["broken", "@@@ not a kernel @@@\n" + baseline.source]]) {
    const file = join(dir, `${p}_${kind}${ext}`);
    writeFileSync(file, source);
    let out;
    try {
      out = execFileSync(kcraft, ["eval", p, "relu", file, "--config", "C1", "--json", "--no-cache"], { encoding: "utf8" });
    } catch (e) {
      out = e.stdout;  // exit 1: the kernel failed, the JSON is still printed
    }
    kernels[p][kind] = { source, verdict: JSON.parse(out).verdict };
  }
  assert.equal(kernels[p].good.verdict, "pass", `${p}: the baseline passes under kcraft eval`);
  assert.notEqual(kernels[p].broken.verdict, "pass", `${p}: the broken kernel fails under kcraft eval`);
}

// ---- the server

let server;
let port;
function startServer() {
  const portFile = join(dir, "port");
  rmSync(portFile, { force: true });
  server = spawn(kcraft, ["serve", "--port", "0", "--port-file", portFile, "--token-file", join(dir, "token"),
                          "--results", resultsFile, "--jobs", String(jobs), "--queue", String(clients * 2),
                          "--max-sessions", String(clients + 8), "--evals-per-minute", "0", "--quiet"],
                 { stdio: ["ignore", "ignore", "pipe"] });
  server.stderr.on("data", (d) => process.stderr.write(d));
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (existsSync(portFile)) {
        clearInterval(poll);
        port = Number(readFileSync(portFile, "utf8"));
        resolve();
      } else if (Date.now() - started > 20000) {
        clearInterval(poll);
        reject(new Error("the server did not start"));
      }
    }, 20);
  });
}
const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]);

// ---- one client

const latencies = {};  // tool -> [ms]
let callsSent = 0, callsAnswered = 0, busyRetries = 0, verdictChecks = 0;
const acknowledged = [];  // {session, submission}

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "kcraft-load", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function call(client, name, args = {}) {
  for (;;) {
    const start = performance.now();
    callsSent++;
    try {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
      callsAnswered++;
      (latencies[name] ??= []).push(performance.now() - start);
      return r;
    } catch (e) {
      // The server's retryable refusal: a full queue.
      if (e.code === -32000 && /--queue/.test(e.message)) {
        callsAnswered++;
        busyRetries++;
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
        continue;
      }
      throw e;
    }
  }
}

const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

async function agentRound(c, index, round) {
  const { client, transport } = c;
  if (round === 0) assert.equal((await call(client, "list_tasks")).isError, false);
  for (const p of platforms) {
    const kind = (index + round) % 2 === 0 ? "good" : "broken";
    const kernel = kernels[p][kind];
    const selected = await call(client, "select_task", { task: "relu", config: "C1", platform: p });
    assert.equal(selected.isError, false, text(selected));
    const written = await call(client, "write_code", { code: kernel.source, name: `relu_${p}.k` });
    assert.equal(written.isError, false, text(written));
    await call(client, "check_syntax");
    const evaluation = await call(client, "run_eval");
    assert.equal(evaluation.structuredContent.verdict, kernel.verdict,
                 `client ${index} round ${round} ${p} ${kind}: kcraft serve says ${evaluation.structuredContent.verdict}, kcraft eval ${kernel.verdict}`);
    verdictChecks++;
    if (kind === "good") {
      const profile = await call(client, "profile");
      assert.equal(profile.isError, false, text(profile));
      const submitted = await call(client, "submit");
      assert.equal(submitted.isError, false, text(submitted));
      assert.equal(submitted.structuredContent.score.verdict, "pass");
      acknowledged.push({ session: submitted.structuredContent.session, submission: submitted.structuredContent.submission });
    }
  }
}

function percentile(sorted, q) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function submissionsOnDisk() {
  if (!existsSync(resultsFile)) return [];
  return readFileSync(resultsFile, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
}

function checkSubmissions(acks) {
  const lines = submissionsOnDisk();
  const keys = lines.map((l) => `${l.session}#${l.submission}`);
  assert.equal(new Set(keys).size, keys.length, "no submission is recorded twice");
  const onDisk = new Set(keys);
  for (const a of acks) assert.ok(onDisk.has(`${a.session}#${a.submission}`), `acknowledged ${a.session}#${a.submission} is in the results`);
  return lines.length;
}

async function main() {
  await startServer();
  const sessions = await Promise.all(Array.from({ length: clients }, () => connect()));
  assert.equal(new Set(sessions.map((s) => s.transport.sessionId)).size, clients, "a session per client");
  const rss = [rssKiB()];
  const start = performance.now();
  if (killRestart) {
    // Once a quarter of the clients have had a submission acknowledged (mid-round for the others), the
    // server dies under the clients' feet.
    const running = sessions.map((s, i) => agentRound(s, i, 0).then(() => "done", (e) => e));
    const wanted = Math.max(1, Math.floor(clients / 4));
    for (let waited = 0; acknowledged.length < wanted && waited < 120000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const acksBeforeKill = acknowledged.slice();
    server.kill("SIGKILL");
    const outcomes = await Promise.race([Promise.all(running), new Promise((r) => setTimeout(() => r("hang"), 60000))]);
    assert.notEqual(outcomes, "hang", "every client's pending call ended after the kill");
    const failed = outcomes.filter((o) => o instanceof Error);
    assert.ok(failed.length > 0, "the kill interrupted someone");
    assert.ok(acksBeforeKill.length >= wanted, "submissions were acknowledged before the kill");
    for (const e of failed) assert.ok(e.message.length > 0, "a clean error with a message");
    // What was acknowledged is on disk (fsync before the answer); acknowledgements that raced the kill too.
    const recorded = checkSubmissions(acknowledged);
    console.log(`kill: ${failed.length}/${clients} clients saw errors (e.g. "${failed[0].message.slice(0, 80)}"), ` +
                `${acknowledged.length} acknowledged submissions (${acksBeforeKill.length} before the kill signal), ` +
                `${recorded} in the results file`);
    await startServer();
    const again = await connect();
    await agentRound(again, 0, 0);
    await again.client.close();
    const after = checkSubmissions(acknowledged);
    assert.ok(after > recorded, "the restarted server records submissions in the same results file");
    console.log(`restart: a new session ran a full round; results file ${recorded} -> ${after} submissions`);
    server.kill("SIGTERM");
    return;
  }
  for (let round = 0; round < rounds; round++) {
    await Promise.all(sessions.map((s, i) => agentRound(s, i, round)));
    rss.push(rssKiB());
  }
  const seconds = (performance.now() - start) / 1000;
  for (const s of sessions) await s.transport.terminateSession();
  await Promise.all(sessions.map((s) => s.client.close()));
  assert.equal(callsAnswered, callsSent, "every call was answered exactly once");
  const recorded = checkSubmissions(acknowledged);
  assert.equal(recorded, acknowledged.length, "the results file holds exactly the acknowledged submissions");
  // Flat memory: after the first round (allocator warm-up), no growth beyond 10 % + 4 MiB.
  if (rounds >= 3) {
    assert.ok(rss[rss.length - 1] <= rss[1] * 1.1 + 4096, `RSS grew across rounds: ${rss.join(" -> ")} KiB`);
  }
  const all = Object.values(latencies).flat().sort((a, b) => a - b);
  const evals = (latencies.run_eval ?? []).slice().sort((a, b) => a - b);
  const report = {
    clients, rounds, jobs, platforms, seconds: Number(seconds.toFixed(2)), calls: all.length,
    calls_per_second: Number((all.length / seconds).toFixed(1)),
    evaluations: evals.length + (latencies.profile?.length ?? 0) + (latencies.submit?.length ?? 0),
    latency_ms: { p50: percentile(all, 0.5), p95: percentile(all, 0.95), p99: percentile(all, 0.99) },
    run_eval_ms: { p50: percentile(evals, 0.5), p95: percentile(evals, 0.95), p99: percentile(evals, 0.99) },
    busy_retries: busyRetries, verdicts_checked: verdictChecks, submissions: recorded, rss_kib: rss,
  };
  for (const k of ["latency_ms", "run_eval_ms"]) for (const q of Object.keys(report[k])) report[k][q] = Number(report[k][q].toFixed(1));
  console.log(JSON.stringify(report));
  if (reportFile) writeFileSync(reportFile, JSON.stringify(report, null, 2) + "\n");
  server.kill("SIGTERM");
}

const watchdog = setTimeout(() => {
  console.error("FAILED: timed out");
  server?.kill("SIGKILL");
  process.exit(1);
}, Number(option("--timeout", "1800")) * 1000);
main()
  .then(() => {
    clearTimeout(watchdog);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })
  .catch((e) => {
    console.error("FAILED:", e);
    server?.kill("SIGKILL");
    process.exit(1);
  });
