// test-mcp.mjs: chronoscope-cli mcp driven by the official MCP TypeScript client.
//
// Environment: CHRONO_CLI (the binary), CHRONO_TRACES_DIR (the real traces),
// CHRONO_MCP_NODE_MODULES (where npm installed package.json's packages).
//
// SPDX-License-Identifier: GPL-3.0-or-later

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, symlinkSync, mkdirSync, readFileSync, realpathSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

const require = createRequire(join(process.env.CHRONO_MCP_NODE_MODULES, 'resolve-from-here.js'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { McpError } = require('@modelcontextprotocol/sdk/types.js');
const Ajv = require('ajv');

const CLI = process.env.CHRONO_CLI;
const TRACES = realpathSync(process.env.CHRONO_TRACES_DIR);
const MAIN = join(TRACES, 'kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz');
const RANKS = [0, 1].map((r) => join(TRACES, [
  'param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json',
  'param__dlrm_8rank__worker1_step_12.1694128201556.pt.trace.json'][r]));
const CONTROL = join(TRACES, 'hta__trace_diff_control__control.json.gz');
const TEST = join(TRACES, 'hta__trace_diff_test__test.json.gz');

function cli (...args) {
  return execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
}

// render_view draws with the painters, which a build without GTK lacks (and its CLI lacks export).
const PICTURES = /^  export /m.test(cli('--help'));
const TOOLS = ['analyze', 'compare', 'critical_path', 'find_spans', 'memory', 'open_trace', 'query', ...(PICTURES ? ['render_view'] : []),
               'span_details', 'top_kernels', 'top_operators'];

// A transport that asks for VERSION in initialize and records what the
// server settled on.
class VersionedTransport extends StdioClientTransport {
  constructor (options, version) {
    super(options);
    this.asked = version;
  }

  send (message, options) {
    if (message.method === 'initialize' && this.asked)
      message = { ...message, params: { ...message.params, protocolVersion: this.asked } };
    return super.send(message, options);
  }

  setProtocolVersion (version) {
    this.negotiated = version;
  }
}

async function connect ({ version, roots = [TRACES], extra = [] } = {}) {
  const transport = new VersionedTransport({
    command: CLI,
    args: ['mcp', ...roots.flatMap((r) => ['--root', r]), ...extra],
    stderr: 'pipe',
  }, version);
  const client = new Client({ name: 'chronoscope-test', version: '1' });
  await client.connect(transport);
  return { client, transport };
}

// Runs FN with a connected client, closing it (and so the server) however FN ends.
async function withClient (options, fn) {
  const { client, transport } = await connect(options);
  try {
    return await fn(client, transport);
  } finally {
    await client.close();
  }
}

async function call (client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content[0].type, 'text');
  assert.ok(result.content[0].text.length > 0, `${name} says something`);
  return result;
}

async function ok (client, name, args) {
  const result = await call(client, name, args);
  assert.equal(result.isError, false, `${name} ${JSON.stringify(args)}: ${result.content[0].text}`);
  return result.structuredContent;
}

async function fails (client, name, args, pattern) {
  const result = await call(client, name, args);
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should fail`);
  assert.match(result.content[0].text, pattern);
  return result.content[0].text;
}

// Every page of a paged list, following next_cursor.
async function allPages (client, name, args, member) {
  const rows = [];
  let cursor;
  let pages = 0;
  for (;;) {
    const out = await ok(client, name, cursor ? { ...args, cursor } : args);
    rows.push(...out[member]);
    pages++;
    assert.equal(out.returned, out[member].length);
    if (!out.truncated) {
      assert.equal(out.next_cursor, undefined);
      return { rows, pages, last: out };
    }
    cursor = out.next_cursor;
    assert.ok(pages < 10000);
  }
}

// The spans of a Chrome-format trace file, straight from its JSON.
function fileEvents (path) {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  const root = JSON.parse(text);
  return Array.isArray(root) ? root : root.traceEvents;
}

test('initialises with each supported version, lists tools with valid schemas', async () => {
  for (const version of ['2025-06-18', '2025-11-25']) {
    await withClient({ version }, async (client, transport) => {
    assert.equal(transport.negotiated, version);
    assert.equal(client.getServerVersion().name, 'chronoscope');
    assert.ok(client.getServerCapabilities().tools);
    await client.ping();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    for (const tool of tools) {
      assert.ok(tool.description.length > 40, tool.name);
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        assert.equal(schema.type, 'object');
        assert.ok(ajv.validateSchema(schema), `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
        ajv.compile(schema);
      }
    }
    });
  }
});

test('a version the server does not speak is answered with its latest', async () => {
  const out = await rawSession(['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}']);
  assert.equal(out.messages[0].result.protocolVersion, '2025-11-25');
});

test('open_trace says what info --json says; analyze what analyze --format json says', async () => {
  await withClient({}, async (client) => {
  const opened = await ok(client, 'open_trace', { path: MAIN });
  assert.match(opened.handle, /^h\d+$/);
  assert.deepEqual(opened.traces, [JSON.parse(cli('info', '--json', MAIN))]);
  // relative to the root, and the same files again: the same handle
  const again = await ok(client, 'open_trace', { path: MAIN.slice(TRACES.length + 1) });
  assert.equal(again.handle, opened.handle);
  assert.equal(again.reused, true);

  const report = JSON.parse(cli('analyze', '--format', 'json', MAIN));
  const { rows: findings, last, pages } = await allPages(client, 'analyze', { handle: opened.handle, limit: 3 }, 'findings');
  assert.ok(pages > 1 || report.findings.length <= 3);
  for (const key of Object.keys(report))
    if (key !== 'findings' && key !== 'efficiency')
      assert.deepEqual(last[key], report[key], key);
  // the efficiency rows come with top_operators
  assert.equal(last.efficiency, undefined);
  assert.equal(last.efficiency_rows, report.efficiency.length);
  assert.deepEqual(findings, report.findings);
  assert.equal(last.total, report.findings.length);

  // a step: the same as analyze --range over the step's span
  const steps = await ok(client, 'find_spans', { handle: opened.handle, kind: 'step' });
  assert.equal(steps.total, opened.traces[0].kinds.step);
  const step = steps.spans[2];
  const stepReport = JSON.parse(cli('analyze', '--format', 'json', '--range', `${step.start_ns}:${step.end_ns}`, MAIN));
  const byStep = await ok(client, 'analyze', { handle: opened.handle, step: Number(step.name.split('#')[1]), limit: 500 });
  assert.deepEqual(byStep.window, { start_ns: step.start_ns, end_ns: step.end_ns, step: step.name });
  assert.deepEqual(byStep.findings, stepReport.findings);
  assert.deepEqual(byStep.breakdown, stepReport.breakdown);
  const byName = await ok(client, 'analyze', { handle: opened.handle, step: step.name, limit: 500 });
  assert.deepEqual(byName.findings, byStep.findings);

  // a window
  const mid = Math.floor((step.start_ns + step.end_ns) / 2);
  const winReport = JSON.parse(cli('analyze', '--format', 'json', '--range', `${step.start_ns}:${mid}`, MAIN));
  const win = await ok(client, 'analyze', { handle: opened.handle, start_ns: step.start_ns, end_ns: mid, limit: 500 });
  assert.deepEqual(win.critical_path, winReport.critical_path);
  });
});

test('ranks: several files open as one handle, rank picks one', async () => {
  await withClient({}, async (client) => {
  const opened = await ok(client, 'open_trace', { paths: RANKS });
  assert.deepEqual(opened.traces.map((t) => t.rank), [0, 1]);
  const both = JSON.parse(cli('analyze', '--format', 'json', ...RANKS));
  const all = await ok(client, 'analyze', { handle: opened.handle, limit: 500 });
  assert.deepEqual(all.findings, both.findings);
  assert.deepEqual(all.traces, both.traces);
  const one = JSON.parse(cli('analyze', '--format', 'json', RANKS[1]));
  const rank1 = await ok(client, 'analyze', { handle: opened.handle, rank: 1, limit: 500 });
  assert.deepEqual(rank1.breakdown, one.breakdown);
  assert.deepEqual(rank1.findings, one.findings);
  await fails(client, 'analyze', { handle: opened.handle, rank: 5 }, /rank 5 is not among .* ranks 0, 1/);
  const spans1 = await ok(client, 'find_spans', { handle: opened.handle, rank: 1, limit: 1 });
  assert.equal(spans1.total, opened.traces[1].spans);
  });
});

test('find_spans against the file itself, paging without loss', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { path: MAIN });
  const events = fileEvents(MAIN).filter((e) => e.ph === 'X' && /gemm/i.test(e.name));
  const longest = Math.max(...events.map((e) => e.dur));

  const top = await ok(client, 'find_spans', { handle, name: 'GEMM', sort: 'duration', limit: 5 });
  assert.equal(top.total, events.length);
  assert.equal(top.spans.length, 5);
  assert.equal(top.spans[0].dur_ns, Math.round(longest * 1000));
  for (let i = 1; i < top.spans.length; i++)
    assert.ok(top.spans[i - 1].dur_ns >= top.spans[i].dur_ns);
  for (const s of top.spans)
    assert.match(s.name, /gemm/i);

  // a name most spans have (read span by span) and a rare one (read from
  // the name index) both count what the file holds
  for (const name of ['a', 'relu'])
    assert.equal((await ok(client, 'find_spans', { handle, name, limit: 3 })).total,
                 fileEvents(MAIN).filter((e) => e.ph === 'X' && e.name.toLowerCase().includes(name)).length, name);
  const pattern = await ok(client, 'find_spans', { handle, name: '*sgemm*', kind: 'kernel', limit: 1 });
  assert.equal(pattern.total, events.filter((e) => /sgemm/i.test(e.name) && e.cat === 'Kernel').length);

  // every page of a query: each span once, in time order
  const args = { handle, kind: ['memcpy', 'memset'], limit: 37 };
  const { rows, pages, last } = await allPages(client, 'find_spans', args, 'spans');
  assert.equal(rows.length, last.total);
  assert.ok(pages > 1);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
  for (let i = 1; i < rows.length; i++)
    assert.ok(rows[i - 1].start_ns <= rows[i].start_ns);
  const info = JSON.parse(cli('info', '--json', MAIN));
  assert.equal(rows.length, info.kinds.memcpy + info.kinds.memset);

  // window and minimum duration
  const w0 = rows[3].start_ns, w1 = rows[10].start_ns;
  const win = await ok(client, 'find_spans', { handle, kind: ['memcpy', 'memset'], start_ns: w0, end_ns: w1, limit: 500 });
  assert.equal(win.total, rows.filter((r) => r.end_ns > w0 && r.start_ns < w1).length);
  const long = await ok(client, 'find_spans', { handle, name: 'gemm', min_dur_ns: top.spans[2].dur_ns, limit: 500 });
  assert.equal(long.total, events.filter((e) => Math.round(e.dur * 1000) >= top.spans[2].dur_ns).length);

  // a cursor belongs to its query
  const page1 = await ok(client, 'find_spans', { handle, name: 'gemm', limit: 2 });
  await fails(client, 'find_spans', { handle, name: 'relu', cursor: page1.next_cursor }, /not one of this query's/);
  });
});

test('span_details: args, launch, kernels, enclosing operators, dependencies', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { path: MAIN });
  const kernel = (await ok(client, 'find_spans', { handle, kind: 'kernel', name: 'gemm', sort: 'duration', limit: 1 })).spans[0];
  const d = await ok(client, 'span_details', { handle, id: kernel.id });
  assert.deepEqual(d.span, kernel);
  const raw = fileEvents(MAIN).find((e) => e.ph === 'X' && e.name === kernel.name && Math.round(e.dur * 1000) === kernel.dur_ns &&
                                           String(e.args?.correlation) === d.args.correlation);
  assert.ok(raw, 'the kernel is in the file with these args');
  assert.equal(d.args.stream, String(raw.args.stream));
  assert.equal(d.launch.kind, 'runtime');
  assert.ok(d.launch.end_ns <= kernel.start_ns + 1000);
  assert.ok(d.enclosing.length > 0);
  for (let i = 1; i < d.enclosing.length; i++) {
    assert.equal(d.enclosing[i].depth, d.enclosing[i - 1].depth + 1);
    assert.ok(d.enclosing[i - 1].start_ns <= d.enclosing[i].start_ns && d.enclosing[i - 1].end_ns >= d.enclosing[i].end_ns);
  }
  assert.ok(d.enclosing.some((s) => s.kind === 'host_op'));
  assert.ok(d.dependencies.some((x) => x.type === 'launch' && x.direction === 'before' && x.span.id === d.launch.id));
  assert.ok(d.flows.some((f) => f.direction === 'in' && f.span.id === d.launch.id));

  const launch = await ok(client, 'span_details', { handle, id: d.launch.id });
  assert.ok(launch.kernels.some((k) => k.id === kernel.id));
  assert.equal(launch.args.correlation, d.args.correlation);
  await fails(client, 'span_details', { handle, id: '0:999999:0' }, /has no span 0:999999:0/);
  await fails(client, 'span_details', { handle, id: 99999999999 }, /has no span 99999999999/);
  await fails(client, 'span_details', { handle, id: 'kernel-7' }, /not a span id/);
  });
});

test('one span id: find_spans, critical_path and span_details take and give the query\'s spans.id', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { path: MAIN });
  const at = async (id) => (await ok(client, 'query', { handle, sql: `SELECT name, ts, dur, kind FROM spans WHERE id = ${id}` })).rows;

  // find_spans gives the id that spans.id has
  const found = await ok(client, 'find_spans', { handle, name: 'gemm', sort: 'duration', limit: 20 });
  assert.ok(found.spans.length > 1);
  for (const s of found.spans) {
    assert.ok(Number.isInteger(s.id));
    assert.deepEqual(await at(s.id), [[s.name, s.start_ns, s.dur_ns, s.kind]]);
  }

  // a query's id goes to span_details as it is, as a number or as text
  const { rows: [[id, name, ts, launch, op]] } = await ok(client, 'query', {
    handle, sql: "SELECT id, name, ts, launch_id, op_id FROM device_work WHERE kind = 'kernel' AND op_id IS NOT NULL ORDER BY dur DESC LIMIT 1" });
  for (const given of [id, String(id)]) {
    const d = await ok(client, 'span_details', { handle, id: given });
    assert.equal(d.span.id, id);
    assert.equal(d.span.name, name);
    assert.equal(d.span.start_ns, ts);
    assert.equal(d.launch.id, launch);
    assert.ok(d.enclosing.some((s) => s.id === op));
  }
  // and the older form names the same span
  const d = await ok(client, 'span_details', { handle, id });
  const older = await ok(client, 'query', { handle, sql: `SELECT track_id, id - (SELECT min(id) FROM spans WHERE track_id = s.track_id) FROM spans s WHERE id = ${id}` });
  const [[track, index]] = older.rows;
  assert.equal((await ok(client, 'span_details', { handle, id: `0:${track}:${index}` })).span.id, d.span.id);

  // critical_path's spans too
  const path = await ok(client, 'critical_path', { handle, limit: 30 });
  const spans = path.stretches.filter((s) => s.span).map((s) => s.span);
  assert.ok(spans.length > 0);
  for (const s of spans)
    assert.deepEqual(await at(s.id), [[s.name, s.start_ns, s.dur_ns, s.kind]]);
  const onPath = await ok(client, 'query', { handle, sql: `SELECT count(*) FROM critical_path WHERE span_id = ${spans[0].id}` });
  assert.ok(onPath.rows[0][0] > 0);
  });
});

test('top_operators and top_kernels add up to what the trace holds', async () => {
  await withClient({}, async (client) => {
  const { handle, traces: [info] } = await ok(client, 'open_trace', { path: MAIN });
  const report = JSON.parse(cli('analyze', '--format', 'json', MAIN));
  const kernels = await allPages(client, 'top_kernels', { handle, limit: 7 }, 'rows');
  assert.equal(kernels.rows.reduce((n, r) => n + r.count, 0), (info.kinds.kernel ?? 0) + (info.kinds.collective ?? 0));
  assert.equal(kernels.rows.reduce((n, r) => n + r.count, 0),
               report.breakdown.filter((b) => b.scope === 'device').reduce((n, b) => n + b.kernels, 0));
  assert.equal(kernels.rows.reduce((n, r) => n + r.total_ns, 0), kernels.last.all_ns);
  for (let i = 1; i < kernels.rows.length; i++)
    assert.ok(kernels.rows[i - 1].total_ns >= kernels.rows[i].total_ns);
  // a kernel's C++ signature has a short name without its parameters
  assert.ok(kernels.rows.some((r) => r.name.endsWith(')')));
  for (const r of kernels.rows) {
    if (r.name.endsWith(')'))
      assert.ok(r.short_name !== undefined && !r.short_name.endsWith(')'), r.name);
    if (r.short_name !== undefined)
      assert.ok([...r.short_name].length <= 64 && r.short_name !== r.name, r.short_name);
  }
  const ops = await allPages(client, 'top_operators', { handle, sort: 'count', limit: 100 }, 'rows');
  assert.equal(ops.rows.reduce((n, r) => n + r.count, 0), info.kinds.host_op);
  for (let i = 1; i < ops.rows.length; i++)
    assert.ok(ops.rows[i - 1].count >= ops.rows[i].count);
  for (const r of ops.rows)
    assert.ok(r.self_ns <= r.total_ns && r.min_ns <= r.mean_ns && r.mean_ns <= r.max_ns);
  // each operator's efficiency rows, as the analysis reports them
  const byOp = (rows) => JSON.stringify(rows.map((e) => JSON.stringify(e)).sort());
  const efficiency = ops.rows.flatMap((r) => r.efficiency ?? []);
  for (const r of ops.rows)
    for (const e of r.efficiency ?? [])
      assert.equal(e.op, r.name);
  assert.ok(report.efficiency.length > 0);
  assert.equal(byOp(efficiency), byOp(report.efficiency));
  // one step's kernels are fewer than the whole trace's
  const step = (await ok(client, 'find_spans', { handle, kind: 'step', limit: 1 })).spans[0];
  const inStep = await ok(client, 'top_kernels', { handle, step: Number(step.name.split('#')[1]), limit: 500 });
  assert.equal(inStep.window.step, step.name);
  assert.ok(inStep.all_ns > 0 && inStep.all_ns < kernels.last.all_ns);
  });
});

test('critical_path: each step as the analysis reports it', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { path: MAIN });
  const report = JSON.parse(cli('analyze', '--format', 'json', MAIN));
  const first = await ok(client, 'critical_path', { handle });
  assert.equal(first.steps.length, report.critical_path.length);
  const longest = report.critical_path.reduce((a, b) => (b.total_ns > a.total_ns ? b : a));
  assert.equal(first.step, longest.step);
  for (const expected of report.critical_path) {
    const { rows, last } = await allPages(client, 'critical_path', { handle, step: expected.step, limit: 40 }, 'stretches');
    assert.equal(last.step, expected.step);
    assert.equal(last.total_ns, expected.total_ns);
    assert.deepEqual(last.by_category, expected.by_category);
    assert.equal(rows.length, expected.segments);
    assert.equal(rows.reduce((n, s) => n + s.dur_ns, 0), expected.total_ns);
    for (let i = 1; i < rows.length; i++)
      assert.equal(rows[i].start_ns, rows[i - 1].end_ns);
  }
  await fails(client, 'critical_path', { handle, step: 'ProfilerStep#999' }, /no critical path for step/);
  });
});

test('memory says what analyze --format json says of memory, over a step too', async () => {
  await withClient({}, async (client) => {
  const path = join(TRACES, 'tracelens__h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz');
  const { handle } = await ok(client, 'open_trace', { path });
  const report = JSON.parse(cli('analyze', '--format', 'json', path)).memory;
  const got = await ok(client, 'memory', { handle });
  assert.deepEqual(got.devices, report.devices);
  assert.deepEqual(got.findings, report.findings);
  assert.deepEqual(got.notes, report.notes);
  assert.ok(got.devices.some((d) => d.device === 'cuda:0' && d.live_at_peak.by_operator.length > 0));
  const step = got.devices[0].steps[0];
  const stepReport = JSON.parse(cli('analyze', '--format', 'json', '--range', `${step.start_ns}:${step.end_ns}`, path)).memory;
  const byStep = await ok(client, 'memory', { handle, start_ns: step.start_ns, end_ns: step.end_ns });
  assert.deepEqual(byStep.devices, stepReport.devices);
  // no memory events: no device, and a note that says so
  const none = await ok(client, 'memory', { handle: (await ok(client, 'open_trace', { path: CONTROL })).handle });
  assert.deepEqual(none.devices, []);
  assert.match(none.notes[0], /no memory events/);
  });
});

test('compare says what compare --format json says, table by table', async () => {
  await withClient({}, async (client) => {
  const a = (await ok(client, 'open_trace', { path: CONTROL })).handle;
  const b = (await ok(client, 'open_trace', { path: TEST })).handle;
  for (const options of [[], ['--steps', '1010:1013'], ['--align', 'start']]) {
    const report = JSON.parse(cli('compare', '--format', 'json', ...options, CONTROL, TEST));
    const args = { a, b };
    if (options.length)
      args[options[0].slice(2)] = options[1];
    const first = await ok(client, 'compare', args);
    assert.equal(first.a_handle, a);
    assert.equal(first.b_handle, b);
    assert.equal(first.table, 'ops');
    const tables = ['ops', 'kernels', 'steps', 'findings_diff', 'efficiency'];
    assert.ok(report.flame && report.efficiency.length > 0, 'the report has a flame tree and efficiency rows');
    for (const [member, value] of Object.entries(report)) {
      if (member === 'flame') {
        assert.equal(first.flame, undefined, 'the flame tree stays out');
      } else if (tables.includes(member)) {
        assert.equal(first.tables[member], value.length, member);
        const limit = value.length > 100 ? 150 : 3;
        const paged = await allPages(client, 'compare', { ...args, table: member, limit }, member);
        assert.deepEqual(paged.rows, value, `${member} ${options}`);
        assert.equal(paged.last.total, value.length);
        assert.ok(paged.pages >= Math.ceil(value.length / limit), `${member}: ${paged.pages} pages`);
      } else {
        assert.deepEqual(first[member], value, `${member} ${options}`);
      }
    }
    if (!options.length)
      assert.ok(report.ops.length > 150 && report.steps.length > 3, 'enough rows to page');
  }
  const text = (await call(client, 'compare', { a, b })).content[0].text;
  assert.match(text, /Aligned by step over 3 windows/);

  await fails(client, 'compare', { a, b: 'h99' }, /no trace has the handle “h99”/);
  await fails(client, 'compare', { a, b, steps: '12' }, /steps wants N:M/);
  await fails(client, 'compare', { a, b, steps: '9:3' }, /steps wants N:M/);
  await fails(client, 'compare', { a, b, align: 'marker:' }, /align wants step, start or marker:NAME/);
  await fails(client, 'compare', { a, b, align: 'marker:no such span anywhere' }, /no such span anywhere/);
  await fails(client, 'compare', { a, b, steps: '1:2' }, /./);
  await fails(client, 'compare', { a, b, table: 'ops', cursor: 'garbage' }, /not one of this query's/);
  await fails(client, 'compare', { a, b, table: 'pies' }, /table/);
  });
});

// Width and height from a PNG's IHDR, after checking its signature.
function pngSize (base64) {
  const bytes = Buffer.from(base64, 'base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bytes: bytes.length };
}

test('render_view draws the timeline as a PNG of the size asked', { skip: !PICTURES && 'built without the painters' }, async () => {
  await withClient({}, async (client) => {
  const { handle, traces: [info] } = await ok(client, 'open_trace', { path: CONTROL });
  for (const [args, size] of [[{ width: 800, height: 500 }, { width: 800, height: 500 }],
                              [{ width: 1234, height: 321, range: '10ms:60ms', theme: 'dark', tracks: 'stream*' },
                               { width: 1234, height: 321 }],
                              [{ width: 640, height: 400, finding: 1 }, { width: 640, height: 400 }]]) {
    const result = await call(client, 'render_view', { handle, ...args });
    assert.equal(result.isError, false, result.content[0].text);
    const image = result.content.find((c) => c.type === 'image');
    assert.equal(image.mimeType, 'image/png');
    const png = pngSize(image.data);
    assert.deepEqual({ width: png.width, height: png.height }, size, JSON.stringify(args));
    const out = result.structuredContent;
    assert.equal(out.width, size.width);
    assert.equal(out.height, size.height);
    assert.equal(out.bytes, png.bytes);
    assert.equal(out.handle, handle);
    if (args.range) {
      // ns since 1970 are past a double's exact integers: within its precision
      assert.ok(Math.abs(out.start_ns - (info.start_ns + 10e6)) <= 1024, `${out.start_ns}`);
      assert.ok(Math.abs(out.end_ns - (info.start_ns + 60e6)) <= 1024, `${out.end_ns}`);
    }
    if (args.finding) {
      const report = JSON.parse(cli('analyze', '--format', 'json', CONTROL));
      assert.equal(out.finding.title, report.findings[0].title);
      assert.ok(out.start_ns < out.finding.start_ns && out.finding.end_ns < out.end_ns);
    }
  }
  // the legend makes it taller than the timeline asked for
  const legend = await call(client, 'render_view', { handle, width: 800, height: 300, legend: true });
  assert.ok(pngSize(legend.content[1].data).height > 300);
  // the same view twice: the same picture
  const once = await call(client, 'render_view', { handle, width: 700, height: 200, range: '0:5ms' });
  const twice = await call(client, 'render_view', { handle, width: 700, height: 200, range: '0:5ms' });
  assert.equal(once.content[1].data, twice.content[1].data);
  // a narrower range draws something else
  const other = await call(client, 'render_view', { handle, width: 700, height: 200, range: '0:50ms' });
  assert.notEqual(other.content[1].data, once.content[1].data);

  await fails(client, 'render_view', { handle: 'h99' }, /no trace has the handle “h99”/);
  await fails(client, 'render_view', { handle, width: 5000 }, /width.*4096/);
  await fails(client, 'render_view', { handle, height: 4097 }, /height.*4096/);
  await fails(client, 'render_view', { handle, width: 100 }, /width/);
  await fails(client, 'render_view', { handle, range: '50ms:10ms' }, /range wants START:END/);
  await fails(client, 'render_view', { handle, range: 'soon' }, /range wants START:END/);
  await fails(client, 'render_view', { handle, range: '1:2', finding: 1 }, /give one/);
  await fails(client, 'render_view', { handle, finding: 9999 }, /no finding 9999/);
  await fails(client, 'render_view', { handle, tracks: 'no such track*' }, /no track's or process's name matches/);
  await fails(client, 'render_view', { handle, theme: 'sepia' }, /theme/);
  });
});

test('a folder opens as one trace of its files, as info and analyze read it', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'chronoscope-mcp-')));
  try {
    mkdirSync(join(root, 'job'));
    copyFileSync(RANKS[0], join(root, 'job', 'worker0.json'));
    copyFileSync(RANKS[1], join(root, 'job', 'worker1.json'));
    await withClient({ roots: [root] }, async (client) => {
      const job = await ok(client, 'open_trace', { path: 'job' });
      assert.deepEqual(job.traces, [JSON.parse(cli('info', '--json', join(root, 'job')))]);
      const report = JSON.parse(cli('analyze', '--format', 'json', join(root, 'job')));
      const out = await ok(client, 'analyze', { handle: job.handle, limit: 500 });
      assert.deepEqual(out.findings, report.findings);
      assert.deepEqual(out.critical_path, report.critical_path);
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('errors are results: paths outside the root, symlinks, bad arguments, unloaded handles', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'chronoscope-mcp-')));
  try {
    copyFileSync(RANKS[0], join(root, 'rank0.json'));
    copyFileSync(RANKS[1], join(root, 'rank1.json'));
    copyFileSync(MAIN, join(root, 'big.json.gz'));
    symlinkSync(MAIN, join(root, 'outside.json.gz'));
    symlinkSync(join(root, 'rank0.json'), join(root, 'inside.json'));
    mkdirSync(join(root, 'folder'));
    symlinkSync(TRACES, join(root, 'folder', 'escape'));
    writeFileSync(join(root, 'not-a-trace.txt'), 'hello\n');
    writeFileSync(join(root, 'cut.json'), readFileSync(RANKS[0]).subarray(0, 20000));

    await withClient({ roots: [root], extra: ['--memory-limit', '1.5MB'] }, async (client) => {
    await fails(client, 'open_trace', { path: MAIN }, /outside the folders this server may read/);
    await fails(client, 'open_trace', { path: relative(root, MAIN) }, /outside the folders/);
    await fails(client, 'open_trace', { path: '../no-such-file.json' }, /outside the folders/);
    await fails(client, 'open_trace', { path: 'outside.json.gz' }, /which leads to .* is outside/);
    await fails(client, 'open_trace', { path: 'folder' }, /escape leads to .*outside/);
    await fails(client, 'open_trace', { paths: ['rank0.json', 'outside.json.gz'] }, /outside/);
    await fails(client, 'open_trace', { path: 'missing.json' }, /missing\.json: No such file/);
    await fails(client, 'open_trace', { path: 'not-a-trace.txt' }, /not-a-trace\.txt/);
    await fails(client, 'open_trace', {}, /either path .* or paths/);
    await fails(client, 'open_trace', { path: 'rank0.json', paths: ['rank1.json'] }, /not both/);
    await fails(client, 'open_trace', { path: 7 }, /argument “path”: expected a string, got integer/);
    await fails(client, 'open_trace', { file: 'rank0.json' }, /“file”: not an argument of this tool/);

    await fails(client, 'open_trace', { path: 'big.json.gz' }, /needs .* in memory, over the server's limit of .*--memory-limit/);
    const cut = await ok(client, 'open_trace', { path: 'cut.json' });
    assert.equal(cut.traces[0].truncated, true);
    const h0 = (await ok(client, 'open_trace', { path: 'inside.json' })).handle;
    await fails(client, 'find_spans', { handle: h0, limit: 0 }, /“limit”: expected a number of at least 1/);
    await fails(client, 'find_spans', { handle: h0, limit: 'ten' }, /“limit”: expected an integer, got string/);
    await fails(client, 'find_spans', { handle: h0, sort: 'name' }, /“sort”: expected one of "start", "duration"/);
    await fails(client, 'find_spans', { handle: h0, start_ns: 10, end_ns: 5 }, /window .* is empty/);
    await fails(client, 'analyze', {}, /the argument “handle” is required/);
    await fails(client, 'analyze', { handle: 'h99' }, /no trace has the handle “h99”: call open_trace first/);
    await fails(client, 'analyze', { handle: h0, step: 77 }, /no profiler step “77”/);
    await fails(client, 'analyze', { handle: h0, cursor: 'garbage' }, /not one of this query's/);

    // the limit holds one of these traces: opening the other unloads the first
    const h1 = await ok(client, 'open_trace', { path: 'rank1.json' });
    assert.ok(h1.unloaded.includes(h0));
    assert.ok(h1.loaded_bytes <= h1.memory_limit_bytes);
    await fails(client, 'analyze', { handle: h0 }, /was unloaded .* call open_trace again with .*rank0\.json/);
    await ok(client, 'analyze', { handle: h1.handle });

    let error;
    try {
      await client.callTool({ name: 'render_everything', arguments: {} });
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof McpError);
    assert.equal(error.code, -32602);
    assert.match(error.message, /Unknown tool: render_everything/);
    // and the server goes on
    await client.ping();
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Runs the server on LINES (strings, or Buffers written as they are),
// then closes its input; resolves with its parsed stdout, stderr and exit.
function rawSession (lines, { args = ['--root', TRACES], cwd = undefined, closeAfterMs = 0 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, ['mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'], cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const messages = out.split('\n').filter((l) => l !== '').map((l) => {
        const m = JSON.parse(l);   // stdout holds nothing but messages
        assert.equal(m.jsonrpc, '2.0');
        return m;
      });
      assert.ok(out === '' || out.endsWith('\n'));
      resolve({ messages, stderr: err, code, signal });
    });
    for (const l of lines)
      child.stdin.write(typeof l === 'string' ? l + '\n' : l);
    setTimeout(() => child.stdin.end(), closeAfterMs);
  });
}

const INIT = '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const PING = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

test('query answers as the file itself, pages without loss, and only reads', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { path: MAIN });
  const want = new Map();
  for (const e of fileEvents(MAIN))
    if (e.ph === 'X' && (e.cat === 'kernel' || e.cat === 'Kernel')) {
      const w = want.get(e.name) ?? [0, 0];
      want.set(e.name, [w[0] + 1, w[1] + Math.round(e.dur * 1000)]);
    }
  const sql = "SELECT name, count(*), sum(dur) FROM spans WHERE category IN ('kernel', 'Kernel') GROUP BY name ORDER BY name";
  const { rows, pages, last } = await allPages(client, 'query', { handle, sql, limit: 7 }, 'rows');
  assert.ok(pages > 1 && want.size > 7);
  assert.deepEqual(last.columns, ['name', 'count(*)', 'sum(dur)']);
  assert.equal(last.total, want.size);
  assert.deepEqual(new Map(rows.map((r) => [r[0], [r[1], r[2]]])), want);

  // The analysis tables hold what analyze finds.
  const report = JSON.parse(cli('analyze', '--format', 'json', MAIN));
  const findings = await ok(client, 'query', { handle, sql: 'SELECT rule, time_lost_ns FROM findings ORDER BY time_lost_ns DESC', limit: 500 });
  assert.deepEqual(findings.rows, report.findings.map((f) => [f.rule, f.time_lost_ns]));

  await fails(client, 'query', { handle, sql: 'DELETE FROM findings' }, /only read the trace/);
  await fails(client, 'query', { handle, sql: "ATTACH 'x.db' AS x" }, /ATTACH and DETACH are refused/);
  await fails(client, 'query', { handle, sql: 'PRAGMA temp_store = FILE' }, /PRAGMA statements that change settings/);
  await fails(client, 'query', { handle, sql: "SELECT load_extension('libm')" }, /loading extensions is refused/);
  await fails(client, 'query', { handle, sql: 'SELECT name FROM spans WHERE ORDER BY 1' },
              /near "ORDER": syntax error \(at line 1, column 30\)/);
  await fails(client, 'query', { handle, sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
                                 max_time_ms: 200 }, /time limit of 200 ms/);
  const page1 = await ok(client, 'query', { handle, sql, limit: 2 });
  await fails(client, 'query', { handle, sql: 'SELECT 1', cursor: page1.next_cursor }, /not one of this query's/);
  });
});

test('query over two ranks, each its file', async () => {
  await withClient({}, async (client) => {
  const { handle } = await ok(client, 'open_trace', { paths: RANKS });
  const { rows } = await ok(client, 'query', {
    handle, sql: "SELECT rank, count(*) FROM spans WHERE category = 'kernel' GROUP BY rank ORDER BY rank" });
  assert.deepEqual(rows, RANKS.map((path, rank) => [rank, fileEvents(path).filter((e) => e.ph === 'X' && e.cat === 'kernel').length]));
  });
});

test('malformed JSON-RPC is answered with errors, and the server goes on', async () => {
  const { messages, code } = await rawSession([
    INIT,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    'this is not json',
    '[{"jsonrpc":"2.0","id":2,"method":"ping"}]',
    '"a string"',
    '{"jsonrpc":"1.0","id":3,"method":"ping"}',
    '{"jsonrpc":"2.0","id":4,"method":"no/such/method"}',
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":42}}',
    '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"analyze","arguments":[1]}}',
    '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
    '{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}',
    '{"jsonrpc":"2.0","id":8,"result":{}}',
    '',
    PING(9),
  ]);
  assert.equal(code, 0);
  const byId = (id) => messages.find((m) => m.id === id);
  assert.equal(messages[0].id, 'init');
  assert.equal(messages[1].error.code, -32700);
  assert.equal(messages[1].id, null);
  assert.equal(messages[2].error.code, -32600);
  assert.match(messages[2].error.message, /batches/);
  assert.equal(messages[3].error.code, -32600);
  assert.equal(byId(3).error.code, -32600);
  assert.equal(byId(4).error.code, -32601);
  assert.equal(byId(5).error.code, -32602);
  assert.equal(byId(6).error.code, -32602);
  assert.ok(messages.some((m) => m.id === null && /id must be/.test(m.error?.message)));
  assert.equal(byId(7).error.code, -32602);
  assert.equal(byId(8), undefined);   // a response is not answered
  assert.deepEqual(byId(9).result, {});
  assert.equal(messages.length, 11);
});

test('without --root the current folder is the root', async () => {
  const open = (id, path) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'open_trace', arguments: { path } } });
  const { messages, code } = await rawSession([INIT, open(2, RANKS[0].split('/').pop()), open(3, '/etc/hostname')],
                                              { args: [], cwd: TRACES });
  assert.equal(code, 0);
  assert.equal(messages[1].result.isError, false);
  assert.equal(messages[1].result.structuredContent.traces[0].file, RANKS[0]);
  assert.equal(messages[2].result.isError, true);
  assert.match(messages[2].result.content[0].text, /outside the folders this server may read/);
});

test('tools before initialize are refused', async () => {
  const { messages } = await rawSession(['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', PING(2)]);
  assert.equal(messages[0].error.code, -32600);
  assert.match(messages[0].error.message, /initialize first/);
  assert.deepEqual(messages[1].result, {});
});

test('a 10 MB message is refused without being read, and the server goes on', async () => {
  const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
                                params: { name: 'find_spans', arguments: { handle: 'h1', name: 'x'.repeat(10 << 20) } } });
  const { messages, code } = await rawSession([INIT, huge, PING(2)]);
  assert.equal(code, 0);
  assert.equal(messages[1].error.code, -32600);
  assert.match(messages[1].error.message, /over the limit/);
  assert.deepEqual(messages[2].result, {});
});

test('stdin closed mid-message, and right after a call', async () => {
  const partial = await rawSession([INIT, Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"na')]);
  assert.equal(partial.code, 0);
  assert.equal(partial.messages.length, 1);
  assert.match(partial.stderr, /closed inside a message/);

  const open = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'open_trace', arguments: { path: MAIN } } });
  const analyze = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'analyze', arguments: { handle: 'h1' } } });
  const closed = await rawSession([INIT, open, analyze]);
  assert.equal(closed.code, 0);
  assert.equal(closed.messages.length, 3);
  assert.equal(closed.messages[2].result.isError, false);
  assert.equal(closed.messages[2].result.structuredContent.schema, JSON.parse(cli('analyze', '--format', 'json', MAIN)).schema);
});
