#!/usr/bin/env python3
"""Checks the efficiency rows of torch_npu's traces against rows computed
here, independently, from the trace file itself (Python's standard
library only, no code of the project).

  npu_efficiency_check.py --cli CHRONOSCOPE_CLI TRACE_OR_DIR...

For every trace given whose operators write their "Input Dims" as text,
as torch_npu does (a folder: its *.json files that do), it runs
`analyze --format json --peak-tflops 300 --peak-tbps 1.6` and checks the
rows of the GEMMs, aten::mm and aten::addmm, one per operator and shapes:

  1. FLOPs per call, 2·M·N·K, from the shapes' text ("32,4096;\\r\\n4096,1000":
     an input per ";"-separated item), and bytes: the matrices read and
     written (and addmm's bias read) at the size of their "Input type";
  2. the number of calls;
  3. the device time: the union of the device tasks that torch_npu's
     "async_npu" flows join to the call, each flow starting on the call's
     thread within it and ending where a task on a device stream starts
     (the operators hand their work to a thread of their own, so no launch
     lies inside them);
  4. the achieved TFLOP/s and the roofline at the given peaks,
     calls × max(FLOPs / peak, bytes / bandwidth).

Prints one line per difference; exits 1 on any, 77 (skipped) when there
is no such trace."""
import argparse, decimal, glob, json, os, subprocess, sys

GEMMS = {'aten::mm': (0, 1, None), 'aten::addmm': (1, 2, 0)}   # A, B, bias positions
SIZES = {'float': 4, 'double': 8, 'c10::Half': 2, 'c10::BFloat16': 2, 'Half': 2, 'BFloat16': 2}
PEAK_TFLOPS, PEAK_TBPS = 300, 1.6


def ns(v):
    # Microseconds, exactly as written, to nanoseconds rounded half away from zero.
    q = (decimal.Decimal(str(v)) * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(q)


def items(text):
    return [s.strip() for s in text.split(';')]


def shapes(text):
    return [[int(x) for x in item.split(',')] if item else [] for item in items(text)]


def gemm_cost(op, args):
    a, b, bias = GEMMS[op]
    dims, types = shapes(args['Input Dims']), items(args['Input type'])
    (m, k), (k2, n) = dims[a], dims[b]
    assert k == k2, (op, dims)
    size = SIZES[types[a]]
    flops = 2 * m * n * k
    nbytes = (m * k + k * n + m * n) * size
    if bias is not None and dims[bias]:
        count = 1
        for d in dims[bias]:
            count *= d
        nbytes += count * SIZES[types[bias]]
    return dims, flops, nbytes


def independent(events):
    """(op, shapes) -> [calls, FLOPs, bytes, device ns]."""
    tasks = {}
    for e in events:
        if e.get('ph') == 'X' and 'dur' in e and 'Task Type' in (e.get('args') or {}):
            start = ns(e['ts'])
            tasks.setdefault((e['pid'], e['tid'], start), []).append(start + ns(e['dur']))
    starts = {}
    for e in events:
        if e.get('cat') == 'async_npu' and e.get('ph') == 's':
            starts[e['id']] = e
    flows = {}   # (pid, tid) -> [(start ns, task start, task end)]
    for e in events:
        if e.get('cat') == 'async_npu' and e.get('ph') == 'f' and e['id'] in starts:
            s = starts[e['id']]
            t = ns(e['ts'])
            for end in tasks.get((e['pid'], e['tid'], t), []):
                flows.setdefault((s['pid'], s['tid']), []).append((ns(s['ts']), t, end))
    rows = {}
    for e in events:
        if e.get('ph') != 'X' or e.get('cat') != 'cpu_op' or e.get('name') not in GEMMS:
            continue
        dims, flops, nbytes = gemm_cost(e['name'], e['args'])
        lo = ns(e['ts'])
        hi = lo + ns(e['dur'])
        pieces = [(t, end) for at, t, end in flows.get((e['pid'], e['tid']), []) if lo <= at < hi]
        if not pieces:
            continue
        row = rows.setdefault((e['name'], json.dumps(dims)), [0, flops, nbytes, []])
        row[0] += 1
        row[3].extend(pieces)
    for row in rows.values():
        total, reach = 0, None
        for start, end in sorted(row[3]):
            if reach is None or start > reach:
                total += end - start
                reach = end
            elif end > reach:
                total += end - reach
                reach = end
        row[3] = total
    return rows


def uses_text_shapes(events):
    return any(e.get('cat') == 'cpu_op' and isinstance((e.get('args') or {}).get('Input Dims'), str)
               for e in events)


def check(cli, path):
    with open(path, errors='replace') as f:
        text = f.read()
    # Only torch_npu writes these flows: other traces are not read further.
    if '"async_npu"' not in text:
        return None
    events = json.loads(text)
    if isinstance(events, dict):
        events = events.get('traceEvents', [])
    if not uses_text_shapes(events):
        return None
    ours = independent(events)
    out = subprocess.run([cli, 'analyze', '--format', 'json', '--peak-tflops', str(PEAK_TFLOPS),
                          '--peak-tbps', str(PEAK_TBPS), path], check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    theirs = {(r['op'], json.dumps(r['input_dims'])): r for r in report['efficiency'] if r['op'] in GEMMS}
    problems = []
    name = os.path.basename(path)
    if not ours:
        problems.append(f'{name}: no GEMM here has device work joined by a flow')
    for key in sorted(set(ours) | set(theirs)):
        if key not in theirs or key not in ours:
            problems.append(f'{name}: {key} is only in {"ours" if key in ours else "the report"}')
            continue
        calls, flops, nbytes, device_ns = ours[key]
        r = theirs[key]
        roofline = calls * max(flops / (PEAK_TFLOPS * 1e3), nbytes / (PEAK_TBPS * 1e3))
        checks = [
            ('count', r['count'], calls, 0),
            ('flops', r['flops'], flops, 0),
            ('bytes', r['bytes'], nbytes, 0),
            # A nanosecond of rounding per task at most.
            ('gpu_time_ns', r['gpu_time_ns'], device_ns, 8),
            ('achieved_tflops', r['achieved_tflops'], flops * calls / (device_ns * 1e3), 1e-3 * flops * calls / (device_ns * 1e3)),
            ('roofline_ns', r['roofline_ns'], roofline, 1),
        ]
        for what, got, want, slack in checks:
            if got is None or abs(got - want) > slack:
                problems.append(f'{name}: {key}: {what} {got}, expected {want}')
    print(f'{name}: {len(ours)} GEMM rows, {sum(r[0] for r in ours.values())} calls, '
          f'{sum(r[3] for r in ours.values())} ns on the device')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--cli', required=True)
    parser.add_argument('paths', nargs='+')
    args = parser.parse_args()
    files = []
    for p in args.paths:
        files.extend(sorted(glob.glob(os.path.join(p, '*.json'))) if os.path.isdir(p) else [p])
    problems, checked = [], 0
    for path in files:
        found = check(args.cli, path)
        if found is not None:
            checked += 1
            problems.extend(found)
    for p in problems:
        print(p)
    if checked == 0:
        print('no torch_npu trace to check')
        return 77
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
