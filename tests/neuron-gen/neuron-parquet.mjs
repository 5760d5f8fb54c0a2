// neuron-parquet.mjs: writes a device profile JSON of neuron-gen again as
// Neuron Explorer's folder of Parquet tables, through an independent
// writer (parquet-wasm, the Rust parquet crate built for WebAssembly).
//
// Usage: node neuron-parquet.mjs MODULES_DIR PROFILE.json OUT_DIR
//          [--codec none|snappy|gzip|zstd] [--pages 1|2] [--row-group N]
//          [--page-bytes N] [--no-dictionary] [--file-rows N]
//          [--damage truncated-footer|bad-page-header|wrong-type]
//
// MODULES_DIR holds node_modules with parquet-wasm and apache-arrow. The
// JSON has one record a line, as neuron-gen writes it: a device profile,
// or a system profile, whose mem_usage, device_mem_usage and cpu_util
// become HostMemUsage, SystemProfileHbmUsage and CpuUsage; inst_dep_ids become
// Flow rows, and every field of a record that the tables here do not name
// becomes a column of its own name (the profile's JSON uses the Parquet
// names for them). Prints what it wrote as one JSON object.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';

const [modulesDir, profile, outDir, ...rest] = process.argv.slice(2);
if (!modulesDir || !profile || !outDir) {
  console.error('usage: neuron-parquet.mjs MODULES_DIR PROFILE.json OUT_DIR [options]');
  process.exit(2);
}
const opt = { codec: 'snappy', pages: 1, rowGroup: 1024 * 1024, pageBytes: 1024 * 1024,
              dictionary: true, fileRows: 0, damage: null };
for (let i = 0; i < rest.length; i++) {
  const a = rest[i];
  if (a === '--codec') opt.codec = rest[++i];
  else if (a === '--pages') opt.pages = Number(rest[++i]);
  else if (a === '--row-group') opt.rowGroup = Number(rest[++i]);
  else if (a === '--page-bytes') opt.pageBytes = Number(rest[++i]);
  else if (a === '--no-dictionary') opt.dictionary = false;
  else if (a === '--file-rows') opt.fileRows = Number(rest[++i]);
  else if (a === '--damage') opt.damage = rest[++i];
  else { console.error(`neuron-parquet: unknown option ${a}`); process.exit(2); }
}

const require = createRequire(path.join(path.resolve(modulesDir), 'node_modules', 'x.js'));
const arrow = await import(require.resolve('apache-arrow'));
const pw = await import(require.resolve('parquet-wasm'));
const codecs = { none: pw.Compression.UNCOMPRESSED, snappy: pw.Compression.SNAPPY,
                 gzip: pw.Compression.GZIP, zstd: pw.Compression.ZSTD };
if (!(opt.codec in codecs)) { console.error(`neuron-parquet: unknown codec ${opt.codec}`); process.exit(2); }

// Integers of 16 digits and more are quoted before JSON.parse sees them:
// ids above 2^53 must stay exact.
const bigs = /([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;
const big = (v) => BigInt.asIntN(64, BigInt(v));

const tables = {
  Instruction: { start_ts: [], end_ts: [], duration_ns: [], engine: [], timeline_track: [], opcode: [],
                 operands: [], id: [], pc: [], evt_wait_time_ns: [], hlo_name: [], hlo_attrs: [],
                 nki_source_location: [] },
  Flow: { in_id: [], out_id: [], in_table: [], out_table: [], dependency_type: [] },
  DmaPacketAggregated: { start_ts: [], end_ts: [], duration_ns: [], id: [], queue_idx: [], queue_name: [],
                         queue_type: [], op: [], variable: [], transfer_bytes: [], source: [], dest: [],
                         semaphore_id: [] },
  SemaphoreUpdate: { timestamp: [], id: [], value: [], update_source: [], update_operation_type: [],
                     update_trigger_timing: [], pcore_idx: [] },
  CcOp: { start_ts: [], end_ts: [], duration_ns: [], operation: [], algorithm: [], dtype: [], op_id: [],
          input_size: [], output_size: [], replica_group: [], trigger_engine: [] },
  CcInstruction: { start_ts: [], end_ts: [], duration_ns: [], core_idx: [], description: [], trigger_engine: [] },
  HostMemUsage: { timestamp: [], used_bytes: [], used_percent: [], instance_id: [] },
  SystemProfileHbmUsage: { timestamp: [], total_bytes: [] },
  CpuUsage: { timestamp: [], util_percent: [], cpu_id: [], instance_id: [] },
  Summary: {},
  Throttle: {}, ThrottleSummary: {}, ExecutionInfo: {}, Metadata: {}, StackFrame: {}, StackFrameFileLocation: {},
  StackFrameFileName: {}, StackFrameFunctionName: {},
};
// Arrow types of the columns that are not strings or int64 (schema reference: int32, float, bool).
const int32 = new Set(['SemaphoreUpdate.value', 'Throttle.k', 'Throttle.n', 'ThrottleSummary.nc_idx',
                       'ExecutionInfo.execution_index', 'ExecutionInfo.num_subgraphs', 'Metadata.ntff_version',
                       'Metadata.num_physical_cores', 'Metadata.num_dma_engines_per_neuroncore',
                       'StackFrame.file_location_id', 'StackFrameFileLocation.file_name_id',
                       'StackFrameFileLocation.function_name_id', 'StackFrameFileLocation.line_number']);
const float32 = (table, name) => table === 'Summary'
  ? /(_time|_percent|_ratio|_intensity|_average_bytes)$/.test(name)
  : /(_bandwidth|_clock_freq|_percent|^throughput)$/.test(name);
const counts = {};

const keyTable = { instruction: 'Instruction', dma: 'DmaPacketAggregated', semaphore_update: 'SemaphoreUpdate',
                   cc_op: 'CcOp', cc_instruction: 'CcInstruction', throttle: 'Throttle',
                   throttle_summary: 'ThrottleSummary', execution_info: 'ExecutionInfo', metadata: 'Metadata',
                   stack_frame: 'StackFrame',
                   stack_frame_file_location: 'StackFrameFileLocation', stack_frame_file_name: 'StackFrameFileName',
                   stack_frame_function_name: 'StackFrameFunctionName', mem_usage: 'HostMemUsage',
                   device_mem_usage: 'SystemProfileHbmUsage', cpu_util: 'CpuUsage' };
// Fields of a record the tables above already carry (under these or other
// names), or that have no column; every other field gets a column of its
// own name, null in the rows without it.
const carried = {
  Instruction: new Set(['timestamp', 'duration', 'label', 'subgroup', 'opcode', 'operands', 'id', 'pc', 'inst_dep_ids',
                        'evt_wait_time', 'hlo_name', 'hlo_attrs', 'nki_source_location', 'elements', 'subgraph',
                        'fully_qualified_subgraph']),
  DmaPacketAggregated: new Set(['timestamp', 'duration', 'subgroup', 'queue_name', 'queue_idx', 'queue_type', 'op',
                                'variable', 'transfer_size', 'source', 'dest', 'semaphore_id']),
  SemaphoreUpdate: new Set(['timestamp', 'id', 'value', 'update_source', 'update_operation_type',
                            'update_trigger_timing', 'pcore_idx']),
  CcOp: new Set(['start_ts', 'end_ts', 'operation', 'algorithm', 'dtype', 'op_id', 'input_size', 'output_size',
                 'replica_group', 'trigger_engine']),
  CcInstruction: new Set(['start_ts', 'end_ts', 'core_idx', 'description', 'trigger_engine']),
  HostMemUsage: new Set(['timestamp', 'duration', 'instance_id', 'usage', 'percent_usage']),
  CpuUsage: new Set(['timestamp', 'duration', 'instance_id', 'cpu_id', 'util']),
  // Its records already use the table's names.
  SystemProfileHbmUsage: new Set(['timestamp', 'duration']),
};
const renamed = { 'Instruction.elements': 'tensor_elements' };

function cell(v) {
  return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
}

// A field of row ROWS - 1 of TABLE, in a column made (null above) when new.
function extra(table, name, value) {
  const t = tables[table];
  if (!(name in t)) t[name] = new Array(counts[table] - 1).fill(null);
  t[name].push(cell(value));
}
let current = null;
let dmaId = 0;
const input = readline.createInterface({ input: fs.createReadStream(profile), crlfDelay: Infinity });
for await (const line of input) {
  const head = line.match(/^\s*"(\w+)": \[/);
  if (head) {
    current = keyTable[head[1]] ?? null;
    if (head[1] === 'summary') {
      const s = JSON.parse(line.trim().replace(/^"summary":/, '').replace(/,$/, '').replace(bigs, '$1"$2"'))[0];
      for (const [k, v] of Object.entries(s))
        tables.Summary[k] = [typeof v === 'number' && !Number.isInteger(v) ? v : (k === 'nc_idx' ? Number(v) : v)];
    }
    continue;
  }
  if (current === null || !/^\s*\{/.test(line)) continue;
  const r = JSON.parse(line.trim().replace(/,$/, '').replace(bigs, '$1"$2"'));
  const t = tables[current];
  counts[current] = (counts[current] ?? 0) + 1;
  if (current === 'Instruction') {
    const ts = big(r.timestamp), dur = big(r.duration);
    t.start_ts.push(ts); t.end_ts.push(ts + dur); t.duration_ns.push(dur);
    t.engine.push((r.subgroup ?? r.label).toLowerCase());
    // Explorer fills timeline_track only where it differs from the engine.
    t.timeline_track.push(r.label === r.subgroup ? null : r.label);
    t.opcode.push(r.opcode); t.operands.push(r.operands); t.id.push(big(r.id)); t.pc.push(big(r.pc));
    t.evt_wait_time_ns.push(big(r.evt_wait_time)); t.hlo_name.push(r.hlo_name);
    t.hlo_attrs.push(r.hlo_attrs); t.nki_source_location.push(r.nki_source_location ?? null);
    if ('elements' in r) extra(current, renamed['Instruction.elements'], r.elements);
    for (const dep of r.inst_dep_ids) {
      const f = tables.Flow;
      f.in_id.push(big(dep)); f.out_id.push(big(r.id)); f.in_table.push('instruction');
      f.out_table.push('instruction'); f.dependency_type.push(null);
      counts.Flow = (counts.Flow ?? 0) + 1;
    }
  } else if (current === 'DmaPacketAggregated') {
    const ts = big(r.timestamp), dur = big(r.duration);
    const q = r.queue_name.match(/-Q(\d+)-E\d+$/);
    t.start_ts.push(ts); t.end_ts.push(ts + dur); t.duration_ns.push(dur); t.id.push(BigInt(++dmaId));
    t.queue_idx.push(BigInt(q ? q[1] : 0)); t.queue_name.push(r.queue_name); t.queue_type.push(r.queue_type);
    t.op.push(r.op); t.variable.push(r.variable); t.transfer_bytes.push(big(r.transfer_size));
    t.source.push(r.source); t.dest.push(r.dest); t.semaphore_id.push(r.semaphore_id);
  } else if (current === 'SemaphoreUpdate') {
    t.timestamp.push(big(r.timestamp)); t.id.push(r.id); t.value.push(Number(r.value));
    t.update_source.push(r.update_source); t.update_operation_type.push(r.update_operation_type);
    t.update_trigger_timing.push(r.update_trigger_timing); t.pcore_idx.push(big(r.pcore_idx));
  } else if (current === 'CcOp') {
    const s = big(r.start_ts), e = big(r.end_ts);
    t.start_ts.push(s); t.end_ts.push(e); t.duration_ns.push(e - s); t.operation.push(r.operation);
    t.algorithm.push(r.algorithm); t.dtype.push(r.dtype); t.op_id.push(big(r.op_id));
    t.input_size.push(big(r.input_size)); t.output_size.push(big(r.output_size));
    t.replica_group.push(r.replica_group); t.trigger_engine.push(r.trigger_engine);
  } else if (current === 'HostMemUsage') {
    t.timestamp.push(big(r.timestamp)); t.used_bytes.push(big(r.usage)); t.used_percent.push(r.percent_usage);
    t.instance_id.push(r.instance_id);
  } else if (current === 'SystemProfileHbmUsage') {
    t.timestamp.push(big(r.timestamp));
  } else if (current === 'CpuUsage') {
    t.timestamp.push(big(r.timestamp)); t.util_percent.push(r.util); t.cpu_id.push(r.cpu_id);
    t.instance_id.push(r.instance_id);
  } else if (current === 'CcInstruction') {
    const s = big(r.start_ts), e = big(r.end_ts);
    t.start_ts.push(s); t.end_ts.push(e); t.duration_ns.push(e - s); t.core_idx.push(big(r.core_idx));
    t.description.push(r.description);
    // Every other row without its trigger: a nullable column with nulls.
    t.trigger_engine.push(counts.CcInstruction % 2 ? r.trigger_engine : null);
  }
  for (const [k, v] of Object.entries(r))
    if (!carried[current]?.has(k)) extra(current, k, v);
  // Columns that only some rows have are null in the rest.
  for (const values of Object.values(t))
    while (values.length < counts[current]) values.push(null);
}

function vector(table, name, values) {
  if (opt.damage === 'wrong-type' && table === 'Instruction' && name === 'start_ts')
    return arrow.vectorFromArray(values.map(Number), new arrow.Float64());
  if (float32(table, name))
    return arrow.vectorFromArray(values.map((x) => (x === null ? null : Number(x))), new arrow.Float32());
  if (table === 'Summary') {
    const v = values[0];
    if (typeof v === 'number' && !Number.isInteger(v)) return arrow.vectorFromArray(values, new arrow.Float32());
    if (typeof v === 'number') return arrow.vectorFromArray(values.map(BigInt), new arrow.Int64());
    return arrow.vectorFromArray(values.map((x) => BigInt(x)), new arrow.Int64());
  }
  if (int32.has(`${table}.${name}`))
    return arrow.vectorFromArray(values.map((x) => (x === null ? null : Number(x))), new arrow.Int32());
  if (values.some((x) => typeof x === 'boolean')) return arrow.vectorFromArray(values, new arrow.Bool());
  if (values.some((x) => typeof x === 'bigint')) return arrow.vectorFromArray(values, new arrow.Int64());
  return arrow.vectorFromArray(values, new arrow.Utf8());
}

function properties() {
  let b = new pw.WriterPropertiesBuilder()
    .setCompression(codecs[opt.codec])
    .setWriterVersion(opt.pages === 2 ? pw.WriterVersion.V2 : pw.WriterVersion.V1)
    .setMaxRowGroupSize(opt.rowGroup)
    .setDataPageSizeLimit(opt.pageBytes)
    .setWriteBatchSize(Math.max(1, Math.min(1024, opt.rowGroup)))
    .setDictionaryEnabled(opt.dictionary)
    .setCreatedBy('neuron-gen through parquet-wasm');
  // Without a dictionary, PLAIN: the Rust writer would pick DELTA_* for v2.
  b = b.setEncoding(pw.Encoding.PLAIN);
  return b.build();
}

fs.mkdirSync(outDir, { recursive: true });
const written = {};
for (const [table, columns] of Object.entries(tables)) {
  const names = Object.keys(columns);
  const rows = names.length ? columns[names[0]].length : 0;
  if (rows === 0) continue;
  const parts = opt.fileRows > 0 ? Math.ceil(rows / opt.fileRows) : 1;
  const per = Math.ceil(rows / parts);
  written[table] = [];
  for (let p = 0; p < parts; p++) {
    const vectors = {};
    for (const n of names) vectors[n] = vector(table, n, columns[n].slice(p * per, (p + 1) * per));
    const ipc = arrow.tableToIPC(new arrow.Table(vectors), 'stream');
    const bytes = pw.writeParquet(pw.Table.fromIPCStream(ipc), properties());
    const file = path.join(outDir, parts > 1 ? `${table}_${p}.parquet` : `${table}.parquet`);
    fs.writeFileSync(`${file}.tmp`, bytes);
    fs.renameSync(`${file}.tmp`, file);
    written[table].push(path.basename(file));
  }
}

// Damage goes into Instruction.parquet (or its first part).
const damaged = written.Instruction ? path.join(outDir, written.Instruction[0]) : null;
const report = { counts, files: written, codec: opt.codec, pages: opt.pages, row_group: opt.rowGroup };
if (opt.damage === 'truncated-footer' && damaged) {
  const bytes = fs.readFileSync(damaged);
  const footer = bytes.readUInt32LE(bytes.length - 8);
  const keep = bytes.length - 8 - Math.floor(footer / 2);
  fs.writeFileSync(damaged, bytes.subarray(0, keep));
  report.damage_at = keep;
} else if (opt.damage === 'bad-page-header' && damaged) {
  // The first page of the opcode column in the second row group: where it
  // starts is read back with the file's own metadata.
  const { parquetMetadata } = await import(require.resolve('hyparquet'));
  const bytes = fs.readFileSync(damaged);
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const group = meta.row_groups[1];
  const column = group.columns.find((c) => c.meta_data.path_in_schema[0] === 'opcode').meta_data;
  const at = Number(column.dictionary_page_offset ?? column.data_page_offset);
  bytes.fill(0xff, at, at + 16);
  fs.writeFileSync(damaged, bytes);
  report.damage_at = at;
  report.damaged_rows = Number(group.num_rows);
} else if (opt.damage === 'wrong-type') {
  report.damaged_rows = counts.Instruction ?? 0;
} else if (opt.damage) {
  console.error(`neuron-parquet: unknown damage ${opt.damage}`);
  process.exit(2);
}
console.log(JSON.stringify(report));
