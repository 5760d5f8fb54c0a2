#!/usr/bin/env python3
# hta_breakdown.py: an independent reading of Holistic Trace Analysis's
# breakdown definitions, used to check chronoscope-cli analyze.
#
# Per device (a GPU pid) of each trace:
#   temporal breakdown  kernel_time = last end - first start of all GPU work
#                       idle = kernel_time - union(work)
#                       compute = union(computation kernels)
#   kernel types        communication: name starts with "nccl" or holds "gloo:";
#                       memory: name holds "Memcpy" or "Memset"; else computation
#   comm-comp overlap   |union(comm) ∩ union(comp)|
# Per stream, HTA's idle time breakdown: each kernel's gap to the previous
# kernel on the stream is host wait when its runtime call started after
# that kernel ended, kernel wait when shorter than consecutive_kernel_delay,
# other otherwise.
#
# GPU work is what HTA reads as GPU kernels (events with args.stream),
# restricted to device categories: some runtimes put a stream on host
# calls too. Streams are keyed by the event's tid ("stream 7" or 7), the
# row a viewer draws; MTIA traces number args.stream differently.
#
# Usage: hta_breakdown.py CHRONOSCOPE_JSON TRACE...   checks one report
#        hta_breakdown.py --cli CLI DIR              runs CLI on the real
#            Kineto traces in DIR (the 8-rank set as one run); exits 77
#            when DIR is absent, 1 on a mismatch.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import gzip
import json
import sys
from decimal import Decimal

TOLERANCE = 0.01
KERNEL_DELAY_NS = 30
GPU_CATEGORIES = {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "mtia_ccp_events"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = json.loads(f.read(), parse_float=Decimal)
    return data["traceEvents"] if isinstance(data, dict) else data


def ns(value):
    return int((Decimal(value) * 1000).to_integral_value())


def kernel_type(name):
    if name.startswith("nccl") or "gloo:" in name:
        return "comm"
    if "Memcpy" in name or "Memset" in name:
        return "memory"
    return "comp"


def merge(intervals):
    out = []
    for s, e in sorted(intervals):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(merged):
    return sum(e - s for s, e in merged)


def overlap(a, b):
    i = j = total = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def oracle(path):
    events = load(path)
    runtime_start = {}
    work = []
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        args = e.get("args") or {}
        cat = e.get("cat", "")
        if cat not in GPU_CATEGORIES and "correlation" in args:
            runtime_start[args["correlation"]] = ns(e["ts"])
        if cat in GPU_CATEGORIES:
            start = ns(e["ts"])
            tid = e.get("tid")
            if isinstance(tid, str):
                tid = int(tid.split()[-1]) if tid.split() and tid.split()[-1].isdigit() else -1
            work.append({
                "pid": e.get("pid"), "stream": tid, "start": start,
                "end": start + ns(e.get("dur", 0)), "type": kernel_type(e.get("name", "")),
                "correlation": args.get("correlation"),
            })
    devices = {}
    for w in work:
        devices.setdefault(w["pid"], []).append(w)
    result = {}
    for pid, items in devices.items():
        every = merge([(w["start"], w["end"]) for w in items])
        comp = merge([(w["start"], w["end"]) for w in items if w["type"] == "comp"])
        comm = merge([(w["start"], w["end"]) for w in items if w["type"] == "comm"])
        kernel_time = every[-1][1] - every[0][0]
        result[("device", pid)] = {
            "busy_ns": length(every), "idle_ns": kernel_time - length(every),
            "compute_ns": length(comp), "communication_ns": length(comm),
            "comm_comp_overlap_ns": overlap(comp, comm),
        }
        streams = {}
        for w in items:
            streams.setdefault(w["stream"], []).append(w)
        for stream, ws in streams.items():
            ws.sort(key=lambda w: w["start"])
            cats = {"idle_host_wait_ns": 0, "idle_kernel_wait_ns": 0, "idle_other_ns": 0}
            for prev, cur in zip(ws, ws[1:]):
                gap = cur["start"] - prev["end"]
                launched = runtime_start.get(cur["correlation"])
                if launched is not None and launched > prev["end"]:
                    cats["idle_host_wait_ns"] += gap
                elif gap < KERNEL_DELAY_NS:
                    cats["idle_kernel_wait_ns"] += gap
                else:
                    cats["idle_other_ns"] += gap
            result[("stream", stream)] = cats
    return result


def close(ours, theirs, scale):
    # Within 1% of the window the numbers are shares of.
    return abs(ours - theirs) <= TOLERANCE * max(scale, 1)


def check(report, paths):
    failures = 0
    for index, path in enumerate(paths):
        expected = oracle(path)
        rows = [r for r in report["breakdown"] if r["trace"] == index]
        devices = [r for r in rows if r["scope"] == "device"]
        exp_devices = [v for k, v in expected.items() if k[0] == "device"]
        if len(devices) != len(exp_devices):
            print(f"{path}: {len(devices)} devices, HTA reading has {len(exp_devices)}")
            failures += 1
            continue
        for row in rows:
            window = row["end_ns"] - row["start_ns"]
            if row["scope"] == "device":
                # Devices pair up by their busy time, which the pids do not name.
                exp = min(exp_devices, key=lambda v: abs(v["busy_ns"] - row["busy_ns"]))
            else:
                exp = expected.get(("stream", row["stream"]))
                if exp is None:
                    print(f"{path}: stream {row['stream']} unknown to the HTA reading")
                    failures += 1
                    continue
            for key, value in exp.items():
                if not close(row[key], value, window):
                    print(f"{path}: {row['scope']} {row.get('stream', row['device'])} {key}: "
                          f"ours {row[key]}, HTA {value} (window {window})")
                    failures += 1
        print(f"{path}: {len(rows)} rows checked")
    return failures


def run_cli(cli, paths):
    import subprocess
    out = subprocess.run([cli, "analyze", "--format", "json", *paths], check=True,
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    assert report["schema"] == "chronoscope.analysis/2"
    return check(report, paths)


def main():
    if sys.argv[1] == "--cli":
        import glob
        import os
        cli, folder = sys.argv[2], sys.argv[3]
        if not os.path.isdir(folder):
            print(f"{folder}: no traces, skipping")
            return 77
        singles = sorted(glob.glob(os.path.join(folder, "hta__*")) + glob.glob(os.path.join(folder, "kineto__*")))
        ranks = sorted(glob.glob(os.path.join(folder, "param__dlrm_8rank__*")))
        failures = sum(run_cli(cli, [p]) for p in singles)
        if ranks:
            failures += run_cli(cli, ranks)
        return 1 if failures else 0
    with open(sys.argv[1]) as f:
        report = json.load(f)
    return 1 if check(report, sys.argv[2:]) else 0


if __name__ == "__main__":
    sys.exit(main())
