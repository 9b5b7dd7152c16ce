package dev.spool.bench.sink;

import dev.spool.sink.ByteSink;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What idle sinks cost: opens {@code sinks} routed streams (each a file), writes and drains one
 * line into each, then sleeps {@code seconds} and prints the CPU time of Spool's sink threads
 * over that idle period (ThreadMXBean, so load on the machine distorts it little) and their
 * count. Usage: {@code IdleCpuRun <writers> <sinks> <seconds>}, {@code writers} as
 * {@code spool.sink.threads} (0 = a writer thread per sink).
 * Prints {@code [idle-cpu] writers=2 sinks=10 threads=3 cpu_ms=1.2 over_s=10}.
 */
public final class IdleCpuRun {
    private IdleCpuRun() {
    }

    public static void main(String[] args) throws Exception {
        int writers = Integer.parseInt(args[0]);
        int sinks = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        ByteSink.configureWriterThreads(writers);
        Path dir = Files.createTempDirectory("spool-idle-cpu");
        List<OutputStream> streams = new ArrayList<>();
        for (int i = 0; i < sinks; i++) {
            Path f = dir.resolve("log-" + i + ".log");
            OutputStream s = SinkStreams.wrap(new FileOutputStream(f.toFile()), f.toString(), SinkSettings.defaults());
            s.write(("line of log " + i + "\n").getBytes(StandardCharsets.US_ASCII));
            SinkStreams.drain(s);
            streams.add(s);
        }
        Thread.sleep(500); // the last turns and the linger end
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long before = sinkCpu(mx);
        Thread.sleep(seconds * 1000L);
        long after = sinkCpu(mx);
        System.out.printf("[idle-cpu] writers=%d sinks=%d threads=%d cpu_ms=%.1f over_s=%d%n", writers, sinks,
                sinkThreads(), (after - before) / 1e6, seconds);
        for (OutputStream s : streams) {
            s.close();
        }
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private static long sinkCpu(ThreadMXBean mx) {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("spool-sink")) {
                long c = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, c);
            }
        }
        return sum;
    }

    private static int sinkThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            n += t.getName().startsWith("spool-sink") ? 1 : 0;
        }
        return n;
    }
}
