// Drives `kcraft mcp` with the official MCP TypeScript SDK client, as an external agent would:
// handshake, tools/list, list_tasks, select_task, write_code (the baseline kernel from
// `kcraft baseline`), check_syntax, run_eval, submit, and the error paths. Exits non-zero on any failure.
//
// Usage: node sdk_client_test.mjs <path to the kcraft binary>
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LATEST_PROTOCOL_VERSION, McpError } from "@modelcontextprotocol/sdk/types.js";

const kcraft = process.argv[2];
if (!kcraft) {
  console.error("usage: node sdk_client_test.mjs <kcraft binary>");
  process.exit(2);
}

const text = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

async function main() {
  const kernel = execFileSync(kcraft, ["baseline", "systolic", "relu", "--config", "C1"], { encoding: "utf8" });
  assert.match(kernel, /C_HALT/, "kcraft baseline printed a kernel");

  // The SDK passes only a few environment variables by default; keep KCRAFT_ROOT and friends.
  const transport = new StdioClientTransport({ command: kcraft, args: ["mcp"], env: { ...process.env }, stderr: "pipe" });
  let serverLog = "";
  transport.stderr?.on("data", (chunk) => (serverLog += chunk));
  const client = new Client({ name: "kcraft-sdk-client-test", version: "1.0.0" });
  try {
    await client.connect(transport);

    assert.equal(client.getServerVersion().name, "kcraft");
    assert.ok(client.getServerCapabilities().tools, "the server has the tools capability");
    assert.match(client.getInstructions() ?? "", /list_tasks/);

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      "check_syntax", "codesign_profile", "codesign_propose", "get_inst_size", "grep_docs", "list_kernels",
      "list_tasks", "load_kernel", "profile", "read_docs", "run_eval", "select_task", "show_task", "submit",
      "view_output", "write_code",
    ]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", `${t.name} has an object schema`);
      assert.ok(t.description.length > 40, `${t.name} is described`);
    }

    const early = await client.callTool({ name: "run_eval", arguments: {} });
    assert.equal(early.isError, true, "run_eval before select_task is a tool error");
    assert.match(text(early), /select_task/);

    const list = await client.callTool({ name: "list_tasks", arguments: {} });
    assert.equal(list.isError, false);
    const relu = list.structuredContent.tasks.find((t) => t.name === "relu");
    assert.ok(relu, "list_tasks has relu");
    assert.equal(relu.support.C1, "baseline");

    const selected = await client.callTool({ name: "select_task", arguments: { task: "relu", config: "C1" } });
    assert.equal(selected.isError, false, text(selected));
    assert.match(text(selected), /relu/);
    assert.equal(selected.structuredContent.config, "C1");

    const written = await client.callTool({ name: "write_code", arguments: { code: kernel } });
    assert.equal(written.isError, false, text(written));
    assert.ok(written.structuredContent.lines > 3);

    const syntax = await client.callTool({ name: "check_syntax", arguments: {} });
    assert.equal(syntax.isError, false, text(syntax));
    assert.equal(syntax.structuredContent.ok, true, text(syntax));
    assert.equal(syntax.structuredContent.errors, 0);

    const evaluation = await client.callTool({ name: "run_eval", arguments: {} });
    assert.equal(evaluation.isError, false, text(evaluation));
    assert.equal(evaluation.structuredContent.verdict, "pass", text(evaluation));
    assert.ok(evaluation.structuredContent.cycles > 0, "cycles > 0");
    assert.match(text(evaluation), /^pass/);

    const wrongType = await client.callTool({ name: "write_code", arguments: { code: 42 } });
    assert.equal(wrongType.isError, true, "a wrongly typed argument is a tool error");
    assert.match(text(wrongType), /must be a string/);

    await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (e) => {
      assert.ok(e instanceof McpError, `an McpError, got ${e}`);
      assert.equal(e.code, -32602);
      return true;
    });

    const submitted = await client.callTool({ name: "submit", arguments: {} });
    assert.equal(submitted.isError, false, text(submitted));
    const score = submitted.structuredContent.score;
    assert.equal(score.verdict, "pass", text(submitted));
    assert.equal(score.seeds.length, 2);
    assert.equal(score.speedup, 1, "the baseline kernel is exactly as fast as the baseline");

    await client.ping();
    console.log(`ok: protocol ${LATEST_PROTOCOL_VERSION}, ${tools.length} tools, relu C1 passes in ` +
                `${evaluation.structuredContent.cycles} cycles, score ${score.verdict} speedup ${score.speedup}`);
  } finally {
    await client.close();
  }
  assert.match(serverLog, /tools\/call run_eval/, "the server logged on stderr");
}

const watchdog = setTimeout(() => {
  console.error("FAILED: timed out");
  process.exit(1);
}, 240_000);
main()
  .then(() => {
    clearTimeout(watchdog);
    process.exit(0);
  })
  .catch((e) => {
    console.error("FAILED:", e);
    process.exit(1);
  });
