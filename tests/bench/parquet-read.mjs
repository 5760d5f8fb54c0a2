// parquet-read.mjs: the baseline of the Parquet load benchmark. Decodes
// the columns that Chronoscope's Neuron importer reads, from every table
// file of a profile folder, with the writer's own reader (parquet-wasm)
// and with hyparquet, and prints the seconds each took as JSON. Files are
// read into memory before the clock starts.
//
// Usage: node parquet-read.mjs MODULES_DIR FOLDER
//
// SPDX-License-Identifier: GPL-3.0-or-later

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [modulesDir, folder] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modulesDir), 'node_modules', 'x.js'));
const pw = await import(require.resolve('parquet-wasm'));
const { parquetRead, parquetMetadata } = await import(require.resolve('hyparquet'));

// As chrono-neuron-parquet-importer.c reads them.
const columns = {
  Instruction: ['start_ts', 'duration_ns', 'end_ts', 'engine', 'timeline_track', 'opcode', 'operands', 'id'],
  DmaPacketAggregated: ['start_ts', 'duration_ns', 'end_ts', 'queue_name', 'semaphore_id', 'id'],
  SemaphoreUpdate: ['timestamp', 'id', 'value'],
  CcOp: ['start_ts', 'duration_ns', 'end_ts', 'operation'],
  CcInstruction: ['start_ts', 'duration_ns', 'end_ts', 'description', 'core_idx'],
  Flow: ['in_id', 'out_id', 'in_table', 'out_table'],
};

const files = [];
for (const name of fs.readdirSync(folder).sort()) {
  const table = name.replace(/(_\d+)?\.parquet$/, '');
  if (!(table in columns) || !name.endsWith('.parquet')) continue;
  const bytes = fs.readFileSync(path.join(folder, name));
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const present = new Set(meta.schema.map((s) => s.name));
  files.push({ bytes, columns: columns[table].filter((c) => present.has(c)), meta });
}

let uncompressed = 0;
for (const f of files) for (const g of f.meta.row_groups) uncompressed += Number(g.total_byte_size);

let rows = 0;
let t = performance.now();
for (const f of files) {
  // Decoded into Arrow arrays in the module's memory, as columns.
  const table = pw.readParquet(f.bytes, { columns: f.columns });
  for (const batch of table.recordBatches()) {
    rows += batch.numRows;
    batch.free();
  }
  table.free();
}
const wasm = (performance.now() - t) / 1000;

let hrows = 0;
t = performance.now();
for (const f of files) {
  const file = f.bytes.buffer.slice(f.bytes.byteOffset, f.bytes.byteOffset + f.bytes.length);
  await parquetRead({ file, metadata: f.meta, columns: f.columns, onChunk: (c) => { if (c.columnName === f.columns[0]) hrows += c.rowEnd - c.rowStart; } });
}
const hyparquet = (performance.now() - t) / 1000;

console.log(JSON.stringify({ rows, uncompressed_bytes: uncompressed, hyparquet_rows: hrows, parquet_wasm_s: wasm, hyparquet_s: hyparquet }));
