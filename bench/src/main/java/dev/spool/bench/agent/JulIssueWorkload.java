package dev.spool.bench.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

/**
 * Issue 13's JUL workload, as a program run plain and under the agent ({@code scripts/jul-workload.sh}
 * alternates the runs): 2 threads log 200,000 records in all through a {@code Logger} with
 * parameters ({@code "user {0} did {1} in {2} ms"}) and an exception every 1000th, into a
 * {@code FileHandler} with the JDK's {@code SimpleFormatter} and its default format
 * ({@code file}), or into a {@code StreamHandler} with the same formatter on a stream that
 * discards everything ({@code discard}: JUL's own cost, no I/O); the handler is closed at the end.
 * Prints one line: the total time (start to close returned), the producers' time (start to the
 * last logging call returned) and the caller's cost per record (each thread's time in its logging
 * loop divided by its records, averaged), the callers' CPU time per record (the same from
 * {@code ThreadMXBean}: what a record costs the application's threads, robust on a loaded
 * machine), the bytes the callers allocated per record and the process's CPU time (all threads: the work moved, not removed). Usage: {@code JulIssueWorkload file|discard <dir>};
 * {@code -Dbench.jul.limit=<bytes>}: the {@code FileHandler} rotates at that size over 20 files;
 * {@code -Dbench.jul.formatter=xml}: the JDK's {@code XMLFormatter} (a {@code FileHandler}'s default) instead,
 * {@code app}: a {@code SimpleFormatter} subclass, an application's class (Spool leaves such a handler's records
 * on the caller's thread and journals its bytes); {@code -Dbench.jul.params=mutable}: the third parameter a
 * {@code StringBuilder} (the same text; Spool captures such a record holding the handler's monitor, as plain's format).
 */
public final class JulIssueWorkload {

    static final int THREADS = 2;
    static final int RECORDS = 200_000;
    /** {@code -Dbench.jul.params=mutable}: a parameter that is not an immutable JDK value (Spool captures it under the handler's monitor). */
    static final boolean MUTABLE = "mutable".equals(System.getProperty("bench.jul.params"));

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        Files.createDirectories(dir);
        Logger logger = Logger.getLogger("bench.issue13");
        logger.setUseParentHandlers(false);
        Handler handler = mode.equals("discard")
                ? new FlushingStreamHandler(OutputStream.nullOutputStream())
                : Integer.getInteger("bench.jul.limit", 0) > 0 // rotating: jul-workload.log.0 (newest), .1, ...
                ? new FileHandler(dir.resolve("jul-workload.log").toString(), Integer.getInteger("bench.jul.limit"), 20, false)
                : new FileHandler(dir.resolve("jul-workload.log").toString(), false);
        handler.setFormatter(formatter());
        logger.addHandler(handler);
        for (int i = 0; i < 20_000; i++) { // warm-up into the same handler (its lines are in the file too)
            logger.log(Level.FINE, "warm-up {0}", i); // below INFO: not loggable, exercises the call path only
        }
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong callerNanos = new AtomicLong();
        AtomicLong callerCpuNanos = new AtomicLong();
        AtomicLong callerBytes = new AtomicLong();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long c0 = cpu.getCurrentThreadCpuTime();
                long b0 = allocated();
                long t0 = System.nanoTime();
                logRecords(logger, id, RECORDS);
                callerNanos.addAndGet(System.nanoTime() - t0);
                callerCpuNanos.addAndGet(cpu.getCurrentThreadCpuTime() - c0);
                callerBytes.addAndGet(allocated() - b0);
            }, "producer-" + t);
            threads[t].start();
        }
        long begin = System.nanoTime();
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long produced = System.nanoTime() - begin;
        handler.close();
        long total = System.nanoTime() - begin;
        long processCpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
        System.out.printf("mode=%s total_ms=%d producers_ms=%d caller_ns_per_record=%d caller_cpu_ns_per_record=%d "
                        + "caller_bytes_per_record=%d process_cpu_ms=%d%n",
                mode + (agent() ? "+agent" : ""), total / 1_000_000, produced / 1_000_000, callerNanos.get() / RECORDS,
                callerCpuNanos.get() / RECORDS, callerBytes.get() / RECORDS, processCpu / 1_000_000);
    }

    /** Thread {@code id}'s share of {@code records}: parameters, and an exception every 1000th. */
    static void logRecords(Logger logger, int id, int records) {
        for (int i = id; i < records; i += THREADS) {
            if (i % 1000 == 999) {
                logger.log(Level.WARNING, "request " + i + " failed", new IOException("disk said no at " + i));
            } else {
                Object ms = MUTABLE ? new StringBuilder().append(i % 500) : (Object) (i % 500); // the same text
                logger.log(Level.INFO, "user {0} did {1} in {2} ms", new Object[] {"user" + (i % 97), "action" + i, ms});
            }
        }
    }

        /** Bytes this thread allocated so far (HotSpot's {@code com.sun.management.ThreadMXBean}). */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    /** The formatter {@code -Dbench.jul.formatter} names: simple (the default), xml or app. */
    static java.util.logging.Formatter formatter() {
        return switch (System.getProperty("bench.jul.formatter", "simple")) {
            case "xml" -> new java.util.logging.XMLFormatter();
            case "app" -> new SimpleFormatter() { }; // an application's class: its records stay on the caller's thread
            default -> new SimpleFormatter();
        };
    }

    private static boolean agent() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-javaagent:"));
    }

    /** A {@code StreamHandler} that flushes after each record, as {@code FileHandler} does. */
    private static final class FlushingStreamHandler extends StreamHandler {
        FlushingStreamHandler(OutputStream out) {
            super(out, formatter());
        }

        @Override
        public void publish(java.util.logging.LogRecord record) {
            super.publish(record);
            flush();
        }
    }
}
