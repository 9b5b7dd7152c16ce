package dev.spool.bench.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.FileHandler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Issue 13's JUL workload ({@link JulIssueWorkload}'s records, threads and handler) repeated in one
 * JVM: round 0 is the workload as {@code scripts/jul-workload.sh} times it (a cold JVM), the later
 * rounds the same records once the JIT has compiled the path. Per round: wall time, and CPU time
 * per record of the callers, of Spool's capture writer threads ({@code spool-capture-writer-*}, 0
 * without the agent) and of the whole process (JIT compiler and GC threads included). CPU time
 * holds on a loaded machine; compare rounds and runs, not wall times. Usage:
 * {@code [-javaagent:agent/target/spool-agent.jar] -cp bench/target/benchmarks.jar dev.spool.bench.agent.JulIssueRounds [rounds] [records]}.
 */
public final class JulIssueRounds {

    private JulIssueRounds() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : JulIssueWorkload.RECORDS;
        Path dir = Files.createTempDirectory("jul-rounds");
        Logger logger = Logger.getLogger("bench.issue13");
        logger.setUseParentHandlers(false);
        FileHandler handler = new FileHandler(dir.resolve("jul-workload.log").toString(), false);
        handler.setFormatter(new SimpleFormatter());
        logger.addHandler(handler);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (int r = 0; r < rounds; r++) {
                long writer0 = writerCpu(mx);
                long process0 = os.getProcessCpuTime();
                long wall0 = System.nanoTime();
                AtomicLong callers = new AtomicLong();
                Thread[] threads = new Thread[JulIssueWorkload.THREADS];
                for (int t = 0; t < threads.length; t++) {
                    int id = t;
                    threads[t] = new Thread(() -> {
                        long c0 = mx.getCurrentThreadCpuTime();
                        JulIssueWorkload.logRecords(logger, id, records);
                        callers.addAndGet(mx.getCurrentThreadCpuTime() - c0);
                    }, "producer-" + t);
                    threads[t].start();
                }
                for (Thread t : threads) {
                    t.join();
                }
                handler.flush(); // every captured record written
                System.out.printf("round=%d wall_ms=%d caller_cpu_ns_per_record=%d writer_cpu_ns_per_record=%d process_cpu_ns_per_record=%d%n",
                        r, (System.nanoTime() - wall0) / 1_000_000, callers.get() / records,
                        (writerCpu(mx) - writer0) / records, (os.getProcessCpuTime() - process0) / records);
            }
        } finally {
            handler.close();
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /** CPU time so far of the live threads named {@code spool-capture-writer-*}. */
    private static long writerCpu(ThreadMXBean mx) {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("spool-capture-writer-")) {
                long cpu = mx.getThreadCpuTime(t.getId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }
}
