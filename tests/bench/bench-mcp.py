#!/usr/bin/env python3
"""bench-mcp.py: what answering through `chronoscope-cli mcp` costs.

1. analyze through the server against the CLI's own analyze, on the same
   trace in the same run, in alternating runs: a fresh server each run is
   started, initialised, opens the trace and analyses it (every finding
   asked for), timed from the start of the process to the analyze answer;
   the CLI run is `chronoscope-cli analyze --format json TRACE` to its
   exit, its output parsed as the server's answer is. The median of the
   runs' ratios and the ratio of the best runs are reported; the aim is at
   most 1.1.
2. With --big FILE (for ten million spans: chronoscope-cli example --size
   3GB -o FILE), find_spans on that trace once it is loaded: the
   round-trip time of each query: its first run, then the best and the
   median of its runs, which should be under 100 ms.

It reports; it exits 0 unless it cannot run at all.

Usage: bench-mcp.py --cli CHRONOSCOPE_CLI TRACE [--runs N] [--big FILE]

SPDX-License-Identifier: GPL-3.0-or-later
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


class Server:
    def __init__(self, cli, root):
        self.proc = subprocess.Popen([cli, 'mcp', '--root', root], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request('initialize', {'protocolVersion': '2025-11-25', 'capabilities': {},
                                    'clientInfo': {'name': 'bench-mcp', 'version': '1'}})
        self.notify('notifications/initialized')

    def notify(self, method):
        self.proc.stdin.write((json.dumps({'jsonrpc': '2.0', 'method': method}) + '\n').encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        line = json.dumps({'jsonrpc': '2.0', 'id': self.next_id, 'method': method, 'params': params})
        self.proc.stdin.write((line + '\n').encode())
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if 'error' in reply:
            sys.exit(f'bench-mcp: {method}: {reply["error"]["message"]}')
        return reply['result']

    def tool(self, name, arguments):
        result = self.request('tools/call', {'name': name, 'arguments': arguments})
        if result['isError']:
            sys.exit(f'bench-mcp: {name}: {result["content"][0]["text"]}')
        return result['structuredContent']

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def server_analyze(cli, trace):
    t0 = time.perf_counter()
    server = Server(cli, os.path.dirname(trace))
    handle = server.tool('open_trace', {'path': trace})['handle']
    out = server.tool('analyze', {'handle': handle, 'limit': 500})
    elapsed = time.perf_counter() - t0
    server.close()
    return elapsed, out


def cli_analyze(cli, trace):
    # parsed, as the server's answer is
    t0 = time.perf_counter()
    report = json.loads(subprocess.run([cli, 'analyze', '--format', 'json', trace], check=True,
                                       capture_output=True).stdout)
    return time.perf_counter() - t0, report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--cli', required=True)
    parser.add_argument('--runs', type=int, default=11)
    parser.add_argument('--big')
    parser.add_argument('trace')
    args = parser.parse_args()
    trace = os.path.realpath(args.trace)
    if not os.path.exists(trace):
        print(f'bench-mcp: no {trace}; nothing measured')
        return 0

    served, direct = [], []
    for run in range(args.runs):
        s, out = server_analyze(args.cli, trace)
        d, report = cli_analyze(args.cli, trace)
        served.append(s)
        direct.append(d)
        if run == 0 and out['findings'][:out['returned']] != report['findings'][:out['returned']]:
            print('bench-mcp: the server and the CLI disagree')
    ms, md = statistics.median(served), statistics.median(direct)
    paired = statistics.median(s / d for s, d in zip(served, direct))
    print(f'{os.path.basename(trace)} ({os.path.getsize(trace) / 1e6:.1f} MB), {args.runs} alternating runs')
    print(f'  analyze, CLI:          median {md * 1e3:8.1f} ms  (best {min(direct) * 1e3:.1f})')
    print(f'  analyze, MCP server:   median {ms * 1e3:8.1f} ms  (best {min(served) * 1e3:.1f})')
    print(f'  server / CLI:          {paired:.3f} (median of the runs\' ratios), '
          f'{min(served) / min(direct):.3f} (best over best)  (aim: at most 1.1)')

    if args.big:
        big = os.path.realpath(args.big)
        t0 = time.perf_counter()
        server = Server(args.cli, os.path.dirname(big))
        opened = server.tool('open_trace', {'path': big})
        handle = opened['handle']
        spans = opened['traces'][0]['spans']
        print(f'{os.path.basename(big)}: {spans:,} spans, opened in {time.perf_counter() - t0:.1f} s')
        queries = [
            ('first 50 spans', {}),
            ('name "nccl", longest first', {'name': 'nccl', 'sort': 'duration'}),
            ('kernels, longest first', {'kind': 'kernel', 'sort': 'duration'}),
            ('pattern "aten::*mm*"', {'name': 'aten::*mm*'}),
            ('over 1 ms, in a window', {'min_dur_ns': 1000000,
                                        'start_ns': opened['traces'][0]['start_ns'],
                                        'end_ns': opened['traces'][0]['end_ns'] // 2 + opened['traces'][0]['start_ns'] // 2}),
            ('no match', {'name': 'zzz-no-match'}),
        ]
        for label, q in queries:
            times = []
            for _ in range(5):
                t = time.perf_counter()
                out = server.tool('find_spans', {'handle': handle, 'limit': 50, **q})
                times.append(time.perf_counter() - t)
            print(f'  find_spans {label:30s} {out["total"]:>11,} matches  first {times[0] * 1e3:6.1f} ms'
                  f'  best {min(times) * 1e3:6.1f} ms  median {statistics.median(times) * 1e3:6.1f} ms  (aim: under 100)')
        server.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
