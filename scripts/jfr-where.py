#!/usr/bin/env python3
"""Where a JFR recording's CPU samples go, by library: each jdk.ExecutionSample is charged to the
first frame (from the leaf) of a library named below; JDK frames above it mark it as that library's
file or socket I/O. Start-up threads (main, background-preinit) are left out. Also: samples by
thread group, the top leaves per library, and where the request threads (names with "exec") sit
in native code (jdk.NativeMethodSample: system calls that ExecutionSample does not see).

  scripts/jfr-where.py FILE.jfr...      (e.g. the recordings of JFR=DIR scripts/spring-boot.sh 1)
"""
import json
import re
import subprocess
import sys
from collections import Counter

LIBS = [("dev.spool.", "spool"), ("dev.spool.bench.spring.", "app"), ("com.fasterxml.jackson.", "jackson"),
        ("ch.qos.logback.", "logback"), ("org.slf4j.", "logback"), ("org.apache.tomcat.", "tomcat"),
        ("org.apache.coyote.", "tomcat"), ("org.apache.catalina.", "tomcat"), ("org.springframework.", "spring")]
FILE_IO = ("java.io.FileOutputStream", "java.io.FileInputStream", "java.io.RandomAccessFile", "sun.nio.fs.Unix",
           "sun.nio.ch.FileChannelImpl", "java.io.UnixFileSystem", "java.nio.file.Files")
SOCKET = ("sun.nio.ch.SocketDispatcher", "sun.nio.ch.SocketChannelImpl", "sun.nio.ch.EPoll", "sun.nio.ch.NioSocketImpl")
STARTUP = ("main", "background-preinit")


def library(frame):
    best = max((p for p in LIBS if frame.startswith(p[0])), key=lambda p: len(p[0]), default=None)
    return best[1] if best else None


def frames_of(values):
    return [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"]
            for f in (values.get("stackTrace") or {}).get("frames", [])]


def short(frame):
    return ".".join(frame.split(".")[-2:])


def report(path):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "96", "--events",
                          "jdk.ExecutionSample,jdk.NativeMethodSample", path],
                         capture_output=True, text=True, check=True).stdout
    cats, threads, natives, leaves = Counter(), Counter(), Counter(), {}
    for event in json.loads(out)["recording"]["events"]:
        values = event["values"]
        thread = (values.get("sampledThread") or {}).get("javaName") or "?"
        frames = frames_of(values)
        if not frames or thread in STARTUP:
            continue
        if event["type"] == "jdk.NativeMethodSample":
            if "exec" in thread:
                natives[frames[0]] += 1
            continue
        threads[re.sub(r"[0-9]+", "#", thread)] += 1
        cat, io = "jdk only", None
        for frame in frames:
            if io is None and frame.startswith(FILE_IO):
                io = "file I/O"
            if io is None and frame.startswith(SOCKET):
                io = "socket I/O"
            name = library(frame)
            if name:
                cat = f"{name} ({io})" if io else name
                break
        cats[cat] += 1
        leaves.setdefault(cat, Counter())[frames[0]] += 1
    n = sum(cats.values()) or 1
    m = sum(natives.values()) or 1
    print(f"{path}: {n} CPU samples")
    print("  by library:", ", ".join(f"{k} {100 * c / n:.0f}%" for k, c in cats.most_common(12)))
    print("  by thread:", ", ".join(f"{k} {100 * c / n:.0f}%" for k, c in threads.most_common(8)))
    for cat, _ in cats.most_common(5):
        print(f"    {cat}:", ", ".join(f"{short(k)} {100 * c / n:.1f}%" for k, c in leaves[cat].most_common(6)))
    print(f"  request threads in native code ({m} samples):",
          ", ".join(f"{short(k)} {100 * c / m:.0f}%" for k, c in natives.most_common(6)))


if __name__ == "__main__":
    for recording in sys.argv[1:]:
        report(recording)
