#!/usr/bin/env python3
"""query_check.py CLI TRACES_DIR [TRACE...]: checks what `chronoscope-cli
query` answers against the same sums computed here, from the trace files
themselves, with nothing but the standard library.

For every Kineto trace (JSON, plain or gzip) in TRACES_DIR, and Torch
NPU's (Ascend) trace_view.json, or only the TRACEs named, it compares: host operators by name (count, total time),
kernels by name (count, total, shortest, longest), the kernels inside a
window of time (how many, and their time clipped to the window), and the
device work by the operator that launched it (a kernel's runtime call is
found by its correlation id, the call's operator as the innermost `cpu_op`
around it on the same thread). And the eight ranks of one job given
together, by rank. Times are read as the decimal text the profiler wrote
and turned into integer nanoseconds here, after the file's
baseTimeNanoseconds.

And that the command line refuses what would write or escape: writes,
ATTACH, VACUUM INTO, PRAGMAs that change settings, load_extension and a
query past its --max-time each fail with a message saying why, and
nothing is written beside the trace or in the folder it runs in.

Exits 77 when TRACES_DIR does not exist."""
import decimal
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# Current and legacy (2020-2022) spellings.
OPERATOR = ("cpu_op", "Operator")
KERNEL = ("kernel", "Kernel")
LAUNCH = ("cuda_runtime", "Runtime", "cuda_driver")
DEVICE_CATEGORIES = KERNEL + ("gpu_memcpy", "Memcpy", "gpu_memset", "Memset")


def ns(value):
    """Microseconds as written (int or Decimal) to integer nanoseconds."""
    return int(decimal.Decimal(value) * 1000)


def read_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = json.load(f, parse_float=decimal.Decimal)
    except (OSError, ValueError, EOFError):
        return None
    # Torch NPU's trace_view.json (Ascend) is the bare array of events.
    if isinstance(data, list):
        data = {"traceEvents": data}
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list):
        return None
    # Kineto's times are microseconds after baseTimeNanoseconds when the
    # file gives one.
    base = int(data.get("baseTimeNanoseconds", 0))
    events = [e for e in data["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X"]
    for e in events:
        e["ts_ns"] = base + ns(e["ts"])
        e["dur_ns"] = ns(e.get("dur", 0))
    return events


def query(cli, files, sql):
    r = subprocess.run([cli, "query", "--format", "json", "--max-rows", "0"] + files + [sql],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("chronoscope-cli query failed (%d) on %s:\n%s\n%s" % (r.returncode, files, sql, r.stderr))
    answer = json.loads(r.stdout)
    assert not answer["truncated"]
    return answer["rows"]


def group(events, key, value):
    """{key: [count, total, min, max]} of VALUE over EVENTS."""
    out = {}
    for e in events:
        k = key(e)
        v = value(e)
        s = out.setdefault(k, [0, 0, v, v])
        s[0] += 1
        s[1] += v
        s[2] = min(s[2], v)
        s[3] = max(s[3], v)
    return out


def compare(what, path, expected, rows, failures):
    got = {r[0]: list(r[1:]) for r in rows}
    want = {k: v[:len(rows[0]) - 1] if rows else v for k, v in expected.items()}
    if got != want:
        missing = sorted(set(want) - set(got), key=str)[:5]
        extra = sorted(set(got) - set(want), key=str)[:5]
        differ = [(k, want[k], got[k]) for k in want if k in got and want[k] != got[k]][:5]
        failures.append("%s: %s differ: missing %s, extra %s, different %s"
                        % (os.path.basename(path), what, missing, extra, differ))
        return 0
    return 1


def launching_operators(events):
    """[(device event, operator name or None)], following correlation ids
    and then the innermost cpu_op around the launch on its thread."""
    launches = {}
    for e in events:
        if e.get("cat") in LAUNCH:
            correlation = (e.get("args") or {}).get("correlation")
            if correlation is not None and correlation not in launches:
                launches[correlation] = e
    calls = {id(call) for call in launches.values()}

    # Per thread, operators and launch calls in time order (an operator
    # before what starts with it, the longer first), with a stack of the
    # operators still open.
    by_thread = {}
    for e in events:
        if e.get("cat") in OPERATOR or id(e) in calls:
            by_thread.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    operator_of = {}
    for items in by_thread.values():
        items.sort(key=lambda e: (e["ts_ns"], 0 if e.get("cat") in OPERATOR else 1, -e["dur_ns"]))
        stack = []
        for e in items:
            while stack and stack[-1]["ts_ns"] + stack[-1]["dur_ns"] < e["ts_ns"]:
                stack.pop()
            if e.get("cat") in OPERATOR:
                stack.append(e)
                continue
            end = e["ts_ns"] + e["dur_ns"]
            around = [op for op in stack if op["ts_ns"] + op["dur_ns"] >= end]
            operator_of[id(e)] = around[-1]["name"] if around else None

    out = []
    for e in events:
        if e.get("cat") not in DEVICE_CATEGORIES:
            continue
        call = launches.get((e.get("args") or {}).get("correlation"))
        out.append((e, operator_of.get(id(call)) if call is not None else None))
    return out


def check_trace(cli, path, failures):
    events = read_events(path)
    if events is None:
        return None
    ops = [e for e in events if e.get("cat") in OPERATOR]
    kernels = [e for e in events if e.get("cat") in KERNEL]
    if not ops and not kernels:
        return None
    checks = 0
    files = [path]

    rows = query(cli, files, "SELECT name, count(*), sum(dur) FROM spans WHERE category IN ('cpu_op', 'Operator') GROUP BY name")
    checks += compare("host operators by name", path, group(ops, lambda e: e["name"], lambda e: e["dur_ns"]), rows, failures)

    rows = query(cli, files, "SELECT name, count(*), sum(dur), min(dur), max(dur) FROM spans "
                             "WHERE category IN ('kernel', 'Kernel') GROUP BY name")
    checks += compare("kernels by name", path, group(kernels, lambda e: e["name"], lambda e: e["dur_ns"]), rows, failures)

    if kernels:
        first = min(e["ts_ns"] for e in kernels)
        last = max(e["ts_ns"] + e["dur_ns"] for e in kernels)
        w0 = first + (last - first) // 3
        w1 = first + 2 * (last - first) // 3
        inside = [e for e in kernels if e["ts_ns"] < w1 and e["ts_ns"] + e["dur_ns"] > w0]
        want = {"window": [len(inside), sum(min(e["ts_ns"] + e["dur_ns"], w1) - max(e["ts_ns"], w0) for e in inside)]}
        rows = query(cli, files, "SELECT 'window', count(*), total(min(ts_end, %d) - max(ts, %d)) FROM spans "
                                 "WHERE category IN ('kernel', 'Kernel') AND ts < %d AND ts_end > %d" % (w1, w0, w1, w0))
        rows = [[r[0], r[1], int(r[2])] for r in rows]
        checks += compare("kernels in a window", path, {k: v + [0, 0] for k, v in want.items()}, rows, failures)

    device = launching_operators(events)
    if device:
        expected = group(device, lambda p: p[1], lambda p: p[0]["dur_ns"])
        rows = query(cli, files, "SELECT op_name, count(*), sum(dur) FROM device_work "
                                 "WHERE category IN (%s) GROUP BY op_name" % ", ".join("'%s'" % c for c in DEVICE_CATEGORIES))
        checks += compare("device work by launching operator", path, expected, rows, failures)
    return checks


def check_ranks(cli, paths, failures):
    expected = {}
    for rank, path in enumerate(paths):
        events = read_events(path)
        kernels = [e for e in events if e.get("cat") in KERNEL]
        expected[rank] = [len(kernels), sum(e["dur_ns"] for e in kernels)]
    rows = query(cli, paths, "SELECT rank, count(*), sum(dur) FROM spans WHERE category IN ('kernel', 'Kernel') GROUP BY rank")
    return compare("kernels by rank", paths[0], expected, rows, failures)


def check_refusals(cli, path, failures):
    """Runs refused statements on PATH, seen through a folder of its own
    (a link to it) that is also the working directory; returns the number
    of checks."""
    checks = 0
    with tempfile.TemporaryDirectory() as folder:
        trace = os.path.join(folder, os.path.basename(path))
        os.symlink(os.path.abspath(path), trace)
        out = os.path.join(folder, "out.db")
        refused = [
            ("DELETE FROM spans", "refused|may not be modified"),
            ("INSERT INTO spans (id) VALUES (1)", "refused|may not be modified"),
            ("CREATE TABLE t (x)", "refused"),
            ("CREATE TEMP TABLE t (x)", "refused"),
            ("ATTACH '%s' AS out" % out, "ATTACH and DETACH are refused"),
            ("VACUUM INTO '%s'" % out, "refused"),
            ("PRAGMA temp_store = FILE", "PRAGMA statements that change settings are refused"),
            ("PRAGMA journal_mode = WAL", "PRAGMA statements that change settings are refused"),
            ("SELECT load_extension('libm')", "loading extensions is refused"),
        ]
        for sql, why in refused:
            r = subprocess.run([cli, "query", trace, sql], capture_output=True, text=True, cwd=folder)
            if r.returncode == 0 or not re.search(why, r.stderr) or "Traceback" in r.stderr:
                failures.append("refusals: %r exited %d with %r" % (sql, r.returncode, r.stderr.strip()))
            checks += 1
        forever = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        t0 = time.monotonic()
        r = subprocess.run([cli, "query", "--max-time", "0.3", trace, forever], capture_output=True, text=True, cwd=folder)
        took = time.monotonic() - t0
        if r.returncode == 0 or "time limit of 300 ms" not in r.stderr or took > 20:
            failures.append("refusals: a runaway query exited %d after %.1f s with %r" % (r.returncode, took, r.stderr.strip()))
        checks += 1
        left = sorted(os.listdir(folder))
        if left != [os.path.basename(path)]:
            failures.append("refusals: the queries left %s beside the trace" % left)
        checks += 1
    return checks


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    cli, folder = sys.argv[1], sys.argv[2]
    if not os.path.isdir(folder):
        print("no traces folder: skipped")
        sys.exit(77)
    names = sys.argv[3:] or sorted(os.listdir(folder))
    failures = []
    n_traces = n_checks = 0
    for name in names:
        path = os.path.join(folder, name)
        if not (name.endswith(".json") or name.endswith(".json.gz")):
            continue
        checks = check_trace(cli, path, failures)
        if checks is None:
            continue
        n_traces += 1
        n_checks += checks
        print("%-90s %d checks agree" % (name, checks), flush=True)
    small = os.path.join(folder, "kineto__docs__after_fix_trace.json")
    if os.path.exists(small):
        n_checks += check_refusals(cli, small, failures)
        print("writes, ATTACH, VACUUM, PRAGMAs, load_extension and a runaway query refused from the command line")
    ranks = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("param__dlrm_8rank__worker"))
    if len(ranks) > 1:
        n_checks += check_ranks(cli, ranks, failures)
        print("%d ranks of param__dlrm_8rank together: kernels by rank agree" % len(ranks))
    for f in failures:
        print("MISMATCH " + f)
    print("%d traces, %d checks agree, %d differ" % (n_traces, n_checks, len(failures)))
    if n_traces == 0:
        sys.exit(77)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
