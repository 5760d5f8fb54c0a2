#!/usr/bin/env python3
"""Checks the analysis's memory account against one computed here,
independently, from the trace file's own [memory] events (Python's
standard library only, no code of the project).

  memory_check.py --cli CHRONOSCOPE_CLI TRACE_OR_DIR...

For every trace given (a folder: its *.json and *.json.gz files that hold
[memory] events), it runs `analyze --format json` and checks, per device
(Device Type, Device Id):

  1. the peak allocated bytes: the largest "Total Allocated" (or, where
     the events have none, the largest running sum of "Bytes"), and its
     time: the first event that reaches it;
  2. the reserved bytes at that event;
  3. with "Addr": the allocations alive at the peak (matched to frees by
     address, in time order), their count and bytes, and the bytes each
     operator holds (the innermost cpu_op on the allocating thread around
     the event), for every operator the report lists and for the five
     largest here;
  4. a trace with no memory events reports no device;
  5. memory read from counters ("C" events whose series says it counts
     memory in KB or bytes, as Ascend's msprof writes "APP/HBM" in "KB"):
     the largest sample and its first time, per series.

Prints one line per difference; exits 1 on any, 77 (skipped) when there
is no trace to read."""
import argparse, bisect, decimal, glob, gzip, json, os, subprocess, sys

OP_CATS = ('cpu_op', 'Operator', 'hpu_op')


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', errors='replace') as f:
        d = json.load(f, parse_float=decimal.Decimal)
    if isinstance(d, dict):
        return d.get('traceEvents', []), int(d.get('baseTimeNanoseconds', 0) or 0)
    return d, 0


def ns(v):
    # Microseconds, exactly as written, to nanoseconds rounded half away from zero.
    q = (decimal.Decimal(v) * 1000).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(q)


class Ops:
    """The operators of each thread, for the innermost one around a time."""

    def __init__(self, events, base):
        per = {}
        for e in events:
            if (isinstance(e, dict) and e.get('ph') == 'X' and e.get('cat') in OP_CATS
                    and not str(e.get('name', '')).startswith('ProfilerStep#') and 'dur' in e):
                start = ns(e['ts']) + base
                per.setdefault((e.get('pid'), e.get('tid')), []).append((start, -ns(e['dur']), e['name']))
        self.per = {}
        for key, spans in per.items():
            spans.sort()
            longest = max(-s[1] for s in spans)
            self.per[key] = ([s[0] for s in spans], spans, longest)

    def around(self, pid, tid, ts):
        found = self.per.get((pid, tid))
        if found is None:
            return None
        starts, spans, longest = found
        i = bisect.bisect_right(starts, ts) - 1
        # The latest start (the shortest on ties) that still contains TS.
        while i >= 0 and spans[i][0] >= ts - longest:
            start, negdur, name = spans[i]
            if start + -negdur > ts:
                return name
            i -= 1
        return None


def independent(path):
    events, base = load(path)
    mem = [(ns(e['ts']) + base, k, e) for k, e in enumerate(events)
           if isinstance(e, dict) and e.get('name') == '[memory]' and isinstance(e.get('args'), dict)
           and 'Bytes' in e['args'] and 'Device Type' in e['args']]
    mem.sort(key=lambda m: (m[0], m[1]))
    devices = {}
    for ts, _, e in mem:
        a = e['args']
        dtype = int(a['Device Type'])
        did = -1 if dtype == 0 else int(a.get('Device Id', -1))
        devices.setdefault((dtype, did), []).append((ts, e))
    ops = None
    out = {}
    for key, evs in devices.items():
        totals = all('Total Allocated' in e['args'] and 'Total Reserved' in e['args'] for _, e in evs)
        running, best, peak = 0, None, 0
        for k, (ts, e) in enumerate(evs):
            running += int(e['args']['Bytes'])
            value = int(e['args']['Total Allocated']) if totals else running
            if best is None or value > best:
                best, peak = value, k
        r = {'peak': best, 'peak_ns': evs[peak][0],
             'reserved': int(evs[peak][1]['args']['Total Reserved']) if totals else None}
        if all('Addr' in e['args'] for _, e in evs):
            if ops is None:
                ops = Ops(events, base)
            live = {}
            for ts, e in evs[:peak + 1]:
                b, addr = int(e['args']['Bytes']), int(e['args']['Addr'])
                if b > 0:
                    live[addr] = (b, ops.around(e.get('pid'), e.get('tid'), ts))
                elif b < 0:
                    live.pop(addr, None)
            by_op = {}
            for b, op in live.values():
                by_op[op] = by_op.get(op, 0) + b
            r['live'] = (len(live), sum(b for b, _ in live.values()), by_op)
        out[key] = r
    return out


MEMORY_WORDS = ('mem', 'rss', 'heap', 'hbm', 'ddr', 'vram')


def counter_series(path):
    """The memory counters' series by the name the trace gives them
    (event name, its id, the args key): (peak bytes, first time at it)."""
    events, base = load(path)
    series = {}
    for e in events:
        if not isinstance(e, dict) or e.get('ph') != 'C' or not isinstance(e.get('args'), dict):
            continue
        for key, value in e['args'].items():
            name = '%s%s %s' % (e.get('name', ''), ' id: %s' % e['id'] if 'id' in e else '', key)
            low = name.lower()
            if not any(w in low for w in MEMORY_WORDS) or 'unused' in low or '/s' in low:
                continue
            scale = 1024 if key == 'KB' else 1 if low.endswith('bytes') else None
            if scale is None:
                continue
            series.setdefault(name, []).append((ns(e['ts']) + base, int(decimal.Decimal(value) * scale)))
    out = {}
    for name, samples in series.items():
        samples.sort(key=lambda x: x[0])
        best = max(v for _, v in samples)
        if best <= 0:
            continue  # never in use: no lane, no device
        out[name] = (best, next(ts for ts, v in samples if v == best))
    return out


def check_counters(report, path):
    problems = []
    name = os.path.basename(path)
    got = {d['counter']: d for d in report['devices'] if d['source'] == 'counter'}
    want = counter_series(path)
    if set(got) != set(want):
        problems.append('%s: memory counters %s, expected %s' % (name, sorted(got), sorted(want)))
    for key in set(got) & set(want):
        d = got[key]
        if (d['peak_allocated_bytes'], d['peak_ns']) != want[key]:
            problems.append('%s %s: peak %d at %d, expected %d at %d'
                            % (name, key, d['peak_allocated_bytes'], d['peak_ns'], *want[key]))
    return problems


def check(cli, path):
    problems = []
    run = subprocess.run([cli, 'analyze', '--format', 'json', path], capture_output=True, text=True)
    if run.returncode != 0:
        return ['%s: analyze failed: %s' % (path, run.stderr.strip())]
    report = json.loads(run.stdout)['memory']
    problems += check_counters(report, path)
    got = {(d['device_type'], d['device_id']): d for d in report['devices'] if d['source'] != 'counter'}
    want = independent(path)
    name = os.path.basename(path)
    if set(got) != set(want):
        problems.append('%s: devices %s, expected %s' % (name, sorted(got), sorted(want)))
    if not report['devices'] and not any('no memory events' in n for n in report['notes']):
        problems.append('%s: no memory events, and no note says so' % name)
    for key in set(got) & set(want):
        d, w = got[key], want[key]
        where = '%s %s' % (name, d['device'])
        for field, value in (('peak_allocated_bytes', w['peak']), ('peak_ns', w['peak_ns']),
                             ('reserved_at_peak_bytes', w['reserved'])):
            if d[field] != value:
                problems.append('%s: %s %s, expected %s' % (where, field, d[field], value))
        if 'live' not in w:
            if d['live_at_peak'] is not None:
                problems.append('%s: live at peak without addresses' % where)
            continue
        n, total, by_op = w['live']
        live = d['live_at_peak']
        if (live['allocations'], live['bytes']) != (n, total):
            problems.append('%s: %d allocations, %d bytes alive at the peak; expected %d, %d'
                            % (where, live['allocations'], live['bytes'], n, total))
        listed = {g['operator']: g['bytes'] for g in live['by_operator']}
        for op, b in listed.items():
            if by_op.get(op) != b:
                problems.append('%s: %s holds %d bytes at the peak, expected %s' % (where, op, b, by_op.get(op)))
        for op, b in sorted(by_op.items(), key=lambda x: -x[1])[:5]:
            if op not in listed and (len(listed) < 20 or b > min(listed.values())):
                problems.append('%s: %s (%d bytes at the peak) is missing' % (where, op, b))
    return problems


def has_memory(path):
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rt', errors='replace') as f:
            text = f.read()
            # Allocator events, or counters in KB (Ascend's memory).
            return '"[memory]"' in text or '"KB"' in text
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cli', required=True)
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    files = []
    for p in args.paths:
        if os.path.isdir(p):
            files += [f for f in sorted(glob.glob(os.path.join(p, '*.json')) + glob.glob(os.path.join(p, '*.json.gz')))
                      if has_memory(f)]
        elif os.path.exists(p):
            files.append(p)
    if not files:
        print('no traces to read')
        return 77
    problems = []
    for f in files:
        found = check(args.cli, f)
        print('%s: %s' % (os.path.basename(f), 'ok' if not found else '%d differences' % len(found)))
        problems += found
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
