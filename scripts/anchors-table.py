#!/usr/bin/env python3
"""Table of the anchors run: JMH's JSON result plus the [anchor-count] lines of its log.

Usage: anchors-table.py anchors.json anchors.log
Times are ms per invocation (N messages), median [min-max] over the measured iterations.
Ratios are anchor / Spool (above 1: Spool is faster), by median, against the Spool row with
the same thread count ('spoolJul': JUL handler on the sink; 'spoolLogback': Logback appender).
"""
import json
import re
import statistics
import sys
from collections import defaultdict

CLASS_CONTENDER = {"Log4j2AsyncBench": "log4j2Async", "Log4j2AsyncDisruptor4Bench": "log4j2AsyncDisruptor4"}
ORDER = ["spoolJul", "spoolLogback", "julNoIo", "logbackNoIo", "julFileHandler", "log4j2Async", "log4j2AsyncDisruptor4",
         "log4j2Sync", "logbackAsync", "logbackAsyncDefault"]


def main(json_path, log_path):
    times = {}
    for r in json.load(open(json_path)):
        cls, method = r["benchmark"].split(".")[-2:]
        contender = r["params"].get("contender") or CLASS_CONTENDER[cls]
        raw = [v for fork in r["primaryMetric"]["rawData"] for v in fork]
        times[(contender, int(r["params"]["threads"]), method)] = raw
    counts = defaultdict(list)
    pat = re.compile(r"\[anchor-count\] contender=(\S+) threads=(\d+) method=(\S+) lines=(\d+) expected=(\d+) lost=(-?\d+)")
    expected = None
    for line in open(log_path):
        m = pat.search(line)
        if m:
            counts[(m.group(1), int(m.group(2)))].append(int(m.group(6)))
            expected = int(m.group(5))

    def fmt(raw):
        if not raw:
            return "n/a"
        return "%.0f [%.0f–%.0f]" % (statistics.median(raw), min(raw), max(raw))

    def med(key):
        raw = times.get(key)
        return statistics.median(raw) if raw else None

    print("| contender | threads | producers ms | to disk ms | to disk / spoolJul | to disk / spoolLogback "
          "| producers / spoolJul | invocations counted | lines lost per invocation |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for threads in sorted({k[1] for k in times}):
        for c in ORDER:
            p, d = times.get((c, threads, "producers")), times.get((c, threads, "toDisk"))
            if p is None and d is None:
                continue
            ratios = []
            for ref, method in (("spoolJul", "toDisk"), ("spoolLogback", "toDisk"), ("spoolJul", "producers")):
                mine, theirs = med((c, threads, method)), med((ref, threads, method))
                ratios.append("%.2f" % (mine / theirs) if mine and theirs else "n/a")
            lost = counts.get((c, threads), [])
            if lost and max(lost) > 0:
                lost_s = "%d–%d (%.0f–%.0f%%)" % (min(lost), max(lost), 100 * min(lost) / expected,
                                                  100 * max(lost) / expected)
            else:
                lost_s = "0" if lost else "not counted"
            print("| %s | %d | %s | %s | %s | %s | %s | %d | %s |" % (c, threads, fmt(p), fmt(d), *ratios, len(lost), lost_s))
    print("\nN = %s messages per invocation; every invocation (warm-up included) counted." % expected)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
