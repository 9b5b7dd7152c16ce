package dev.spool.bench.anchors;

import dev.spool.sink.ByteSink;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The routed-stream anchor row ({@link SinkPoolBench}'s work: {@code lines} lines from
 * {@code threads} threads through a JUL handler or Logback appender on the Spool sink, to disk,
 * every line counted) measured in CPU time, which load on the machine distorts far less than wall
 * time: the CPU of the whole process per round (producers, the sink's writing, GC), after
 * {@code rounds - 1} warm-up rounds. Usage:
 * {@code SinkPoolCpuRun <writers> <contender> <threads> <lines> <rounds>}, {@code writers} as
 * {@code spool.sink.threads} (0 = a writer thread per sink). Prints one line per measured round:
 * {@code [sink-cpu] writers=2 contender=spoolJul threads=1 round=3 wall_ms=.. process_cpu_ms=..}.
 */
public final class SinkPoolCpuRun {
    private SinkPoolCpuRun() {
    }

    public static void main(String[] args) throws Exception {
        int writers = Integer.parseInt(args[0]);
        String contender = args[1];
        int threads = Integer.parseInt(args[2]);
        int lines = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        ByteSink.configureWriterThreads(writers);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int round = 1; round <= rounds; round++) {
            Path file = Files.createTempFile("spool-sink-cpu-", ".log");
            Contender c = Contender.open(contender, file);
            long cpuBefore = os.getProcessCpuTime();
            long start = System.nanoTime();
            Workload.produce(c, threads, lines);
            c.stop();
            long wall = System.nanoTime() - start;
            long cpu = os.getProcessCpuTime() - cpuBefore;
            long[] out = c.output(file);
            Files.delete(file);
            if (out[0] != lines) {
                throw new IllegalStateException(contender + " wrote " + out[0] + " of " + lines + " lines");
            }
            if (round > 1) {
                System.out.printf("[sink-cpu] writers=%d contender=%s threads=%d round=%d wall_ms=%d process_cpu_ms=%d%n",
                        writers, contender, threads, round, wall / 1_000_000, cpu / 1_000_000);
            }
            System.gc();
        }
    }

}
