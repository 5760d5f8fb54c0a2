#!/usr/bin/env python3
"""Checks the analysis's time ledger and findings against device time
computed here, independently, from the trace's own events (Python's
standard library only, no code of the project).

  ledger_check.py --cli CHRONOSCOPE_CLI [--all] TRACES_DIR

For every Kineto trace in TRACES_DIR (hta__*, kineto__*, param__*, or with
--all every *.json and *.json.gz), and for
the 8 DLRM ranks analysed together, it runs `analyze --format json` and
checks, per device:

  1. the ledger's window is the first to the last kernel, copy or set, and
     its idle states add up to the idle time of that window;
  2. the findings' claims on the device add up to at most its window, and
     to what the ledger says is recoverable;
  3. every claim of a host-side finding (device-sync, sync-memcpy,
     host-bound, data-loading, launch-bound, gpu-idle-gap,
     low-utilization) is at most the device's idle time inside the
     finding's range;
  4. each finding's claims add up to its time lost.

Prints one line per violation and a summary; exits 1 on any, 77 (skipped)
when there are no traces."""
import argparse, glob, gzip, json, os, subprocess, sys

HOST_RULES = ('device-sync', 'sync-memcpy', 'host-bound', 'data-loading', 'launch-bound',
              'gpu-idle-gap', 'low-utilization')
WORK_CATS = ('kernel', 'gpu_memcpy', 'gpu_memset', 'Kernel', 'Memcpy', 'Memset')
IDLE = ('idle_host', 'idle_launch', 'idle_sync', 'idle_data', 'idle_other')


def load(path):
    """The events, and the base time Kineto adds to every ts (ns)."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', errors='replace') as f:
        d = json.load(f)
    if isinstance(d, dict):
        return d.get('traceEvents', []), int(d.get('baseTimeNanoseconds', 0) or 0)
    return d, 0


def ns(v):
    # Microseconds as written, to nanoseconds, from the decimal text.
    text = repr(v) if isinstance(v, float) else str(v)
    if 'e' in text or 'E' in text:
        return int(round(float(text) * 1000))
    whole, _, frac = text.partition('.')
    frac = (frac + '000')[:3]
    sign = -1 if whole.startswith('-') else 1
    return int(whole) * 1000 + sign * int(frac or 0)


def device_work(loaded):
    """Per device index (the pid of the device process): merged intervals."""
    events, base = loaded
    per = {}
    for e in events:
        if not isinstance(e, dict) or e.get('ph') != 'X' or e.get('cat') not in WORK_CATS:
            continue
        if 'dur' not in e or 'ts' not in e:
            continue
        try:
            pid = int(e.get('pid'))
        except (TypeError, ValueError):
            continue
        s = base + ns(e['ts'])
        t = s + ns(e['dur'])
        if t > s:
            per.setdefault(pid, []).append((s, t))
    out = {}
    for pid, iv in per.items():
        iv.sort()
        merged = []
        for s, t in iv:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], t)
            else:
                merged.append([s, t])
        out[pid] = merged
    return out


def busy_in(merged, lo, hi):
    b = 0
    for s, t in merged:
        if t <= lo:
            continue
        if s >= hi:
            break
        b += min(t, hi) - max(s, lo)
    return b


def check(cli, files, label, problems):
    args = [cli, 'analyze', '--format', 'json'] + files
    r = subprocess.run(args, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        problems.append(f'{label}: analyze failed: {r.stderr.strip()[:300]}')
        return 0
    d = json.loads(r.stdout)
    if d.get('schema') != 'chronoscope.analysis/2':
        problems.append(f'{label}: schema {d.get("schema")}')
    work = [device_work(load(f)) for f in files]
    breakdown = d['breakdown']
    ledgers = {row['breakdown']: row for row in d['ledger'] if 'step' not in row}
    claimed = {}
    checked = 0
    for row_index, row in ledgers.items():
        b = breakdown[row_index]
        merged = work[b['trace']].get(b['device'])
        if merged is None:
            continue
        checked += 1
        lo, hi = merged[0][0], merged[-1][1]
        # Kineto rounds to 1 ns at most once per end; allow 1 us.
        if abs(row['start_ns'] - lo) > 1000 or abs(row['end_ns'] - hi) > 1000:
            problems.append(f'{label}: device {b["device"]}: ledger window {row["start_ns"]}-{row["end_ns"]}, '
                            f'the trace says {lo}-{hi}')
            continue
        idle = (hi - lo) - busy_in(merged, lo, hi)
        ledger_idle = sum(row['states'][k] for k in IDLE)
        if abs(ledger_idle - idle) > 1000 + (hi - lo) // 10000:
            problems.append(f'{label}: device {b["device"]}: ledger idle {ledger_idle} ns, the trace shows {idle} ns')
    for f in d['findings']:
        total = sum(c['ns'] for c in f['claims'])
        if total != f['time_lost_ns']:
            problems.append(f'{label}: {f["rule"]}: claims add up to {total}, time lost {f["time_lost_ns"]}')
        for c in f['claims']:
            claimed[c['breakdown']] = claimed.get(c['breakdown'], 0) + c['ns']
            if f['rule'] not in HOST_RULES:
                continue
            b = breakdown[c['breakdown']]
            merged = work[b['trace']].get(b['device'])
            if merged is None:
                continue
            s, e = f['start_ns'], f['end_ns']
            lo, hi = max(s, merged[0][0]), min(e, merged[-1][1])
            idle = max(0, (hi - lo) - busy_in(merged, lo, hi))
            if c['ns'] > idle + 1000:
                problems.append(f'{label}: {f["rule"]} claims {c["ns"] / 1e6:.3f} ms of device {b["device"]}, '
                                f'which idled {idle / 1e6:.3f} ms in {s}-{e}')
    for row_index, n in claimed.items():
        row = ledgers.get(row_index)
        if row is None:
            problems.append(f'{label}: claims on breakdown row {row_index}, which has no ledger')
            continue
        if n > row['end_ns'] - row['start_ns']:
            problems.append(f'{label}: findings claim {n / 1e6:.3f} ms of a {(row["end_ns"] - row["start_ns"]) / 1e6:.3f} ms window')
        if n != row['recoverable_ns']:
            problems.append(f'{label}: claims {n}, the ledger says {row["recoverable_ns"]} recoverable')
    return checked


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--cli', required=True)
    p.add_argument('--all', action='store_true', help='every JSON trace of the folder, whatever its name')
    p.add_argument('traces')
    a = p.parse_args()
    if not os.path.isdir(a.traces):
        print('no traces folder; skipped')
        return 77
    patterns = ('*.json', '*.json.gz') if a.all else ('hta__*.json*', 'kineto__*.json*', 'param__*.json*')
    files = sorted(f for pat in patterns for f in glob.glob(os.path.join(a.traces, pat)))
    if not files:
        print('no Kineto traces; skipped')
        return 77
    problems = []
    devices = 0
    for f in files:
        devices += check(a.cli, [f], os.path.basename(f), problems)
    ranks = sorted(glob.glob(os.path.join(a.traces, 'param__dlrm_8rank__worker*')))
    if len(ranks) == 8:
        devices += check(a.cli, ranks, 'dlrm 8 ranks', problems)
    for line in problems:
        print(line)
    print(f'{len(files)} traces, {devices} devices checked, {len(problems)} violations')
    return 1 if problems or devices == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
