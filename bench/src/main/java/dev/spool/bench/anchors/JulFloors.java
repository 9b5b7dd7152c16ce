package dev.spool.bench.anchors;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

/**
 * The JUL anchor rows' floors (issue 13): CPU time per record, on one thread, of the parts of the
 * realistic-layout JUL path that no capture can remove, to set beside Log4j2 synchronous
 * RandomAccess's whole path ({@code LayoutCpuCost log4j2Sync realistic 1 ...}). Measured with
 * {@code ThreadMXBean} (holds on a loaded machine), steady state (the first round warms up).
 *
 * <ul>
 *   <li>{@code producer}: {@code logger.log(INFO, template, param)} into a handler that only keeps the
 *       record (JUL's own cost on the caller: the {@code LogRecord}, its {@code Instant}, the level
 *       checks) — what the application's thread pays before any capture;</li>
 *   <li>{@code publish}: the JDK's {@code StreamHandler.publish} + {@code flush} (what
 *       {@code FileHandler.publish} does per record) of a ready record whose formatter returns a
 *       constant line of the realistic layout's length, into a stream that discards: the JDK's
 *       handler machinery and encoding, which a writer publishing through the host's handler pays
 *       per record;</li>
 *   <li>{@code jdkFormat}: the JDK's {@code SimpleFormatter.format} of a ready record with the
 *       realistic format (what plain JUL pays per record besides the caller inference).</li>
 * </ul>
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.spool.bench.anchors.JulFloors [records] [rounds]}.
 *
 * <p>{@code JulFloors capture [records] [rounds]}: the caller's CPU and allocated bytes per record of a
 * real {@code FileHandler} + {@code SimpleFormatter} with the realistic format, logged in bursts of
 * {@link #BURST} records (half the capture queue) with a {@code flush()} between bursts outside the
 * measured part, so a caller under the agent never waits for room: Spool's capture on the caller with
 * no back-pressure (plain JUL's whole path without the agent). Each burst runs holding the handler's
 * monitor, so the pool stays off and the flush writes the burst on the same thread:
 * {@code flush-on-caller-cpu-ns} is the writer's work per record on the core that captured it.
 */
public final class JulFloors {

    static volatile Object kept;

    private JulFloors() {
    }

    /** Records logged between two flushes in {@code capture} mode (the capture queue holds 8,192). */
    static final int BURST = 4096;

    public static void main(String[] args) throws java.io.IOException {
        if (args.length > 0 && args[0].equals("capture")) {
            capture(args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000, args.length > 2 ? Integer.parseInt(args[2]) : 4);
            return;
        }
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        System.setProperty("java.util.logging.SimpleFormatter.format", JulSimpleLines.REALISTIC);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        String template = Workload.TEMPLATE.replace("{}", "{0}");

        Logger logger = Logger.getLogger("dev.spool.bench.anchors.OrderService.floor");
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.INFO);
        logger.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                kept = record;
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });

        LogRecord ready = new LogRecord(Level.INFO, template);
        ready.setParameters(new Object[] {Workload.FIRST_PARAM});
        ready.setLoggerName(logger.getName());
        ready.setInstant(Instant.now());
        SimpleFormatter jdk = new SimpleFormatter();
        String line = jdk.format(ready);
        CountingNullStream nowhere = new CountingNullStream();
        StreamHandler handler = new StreamHandler(nowhere, new Formatter() {
            @Override
            public String format(LogRecord r) {
                return line;
            }
        });

        for (int round = 0; round < rounds; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < records; i++) {
                logger.log(Level.INFO, template, Workload.FIRST_PARAM + i);
            }
            long t1 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < records; i++) {
                handler.publish(ready);
                handler.flush();
            }
            long t2 = mx.getCurrentThreadCpuTime();
            int n = records / 4;
            for (int i = 0; i < n; i++) {
                kept = jdk.format(ready);
            }
            long t3 = mx.getCurrentThreadCpuTime();
            if (round > 0) {
                System.out.printf(Locale.ROOT, "[jul-floors] records=%d producer-cpu-ns=%.0f publish-cpu-ns=%.0f jdkFormat-cpu-ns=%.0f "
                                + "line-bytes=%d load=%s%n", records, (t1 - t0) / (double) records, (t2 - t1) / (double) records,
                        (t3 - t2) / (double) n, line.length(), loadAverage());
            }
        }
    }

    private static void capture(int records, int rounds) throws java.io.IOException {
        System.setProperty("java.util.logging.SimpleFormatter.format", JulSimpleLines.REALISTIC);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        String template = Workload.TEMPLATE.replace("{}", "{0}");
        for (int round = 0; round < rounds; round++) {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("spool-jul-floors-", ".log");
            java.util.logging.FileHandler handler = new java.util.logging.FileHandler(file.toString(), false);
            handler.setFormatter(new SimpleFormatter());
            Logger logger = Logger.getLogger("dev.spool.bench.anchors.OrderService.capture");
            logger.setUseParentHandlers(false);
            logger.setLevel(Level.INFO);
            logger.addHandler(handler);
            long cpu = 0;
            long bytes = 0;
            long drain = 0;
            for (int from = 0; from < records; from += BURST) {
                // holding the handler's monitor keeps the capture writer pool off this handler, so the
                // flush below writes the whole burst on this thread: the writer's work on the core
                // that captured the records (the pool's own figure includes crossing cores)
                synchronized (handler) {
                    long c0 = mx.getCurrentThreadCpuTime();
                    long b0 = mx.getThreadAllocatedBytes(self);
                    for (int i = from; i < Math.min(records, from + BURST); i++) {
                        logger.log(Level.INFO, template, Workload.FIRST_PARAM + i);
                    }
                    long c1 = mx.getCurrentThreadCpuTime();
                    cpu += c1 - c0;
                    bytes += mx.getThreadAllocatedBytes(self) - b0;
                    handler.flush(); // under the agent: the captured records are written here, before the next burst
                    drain += mx.getCurrentThreadCpuTime() - c1;
                }
            }
            logger.removeHandler(handler);
            handler.close();
            long lines = Workload.countLines(file);
            java.nio.file.Files.delete(file);
            java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(file + ".lck"));
            if (round > 0) {
                System.out.printf(Locale.ROOT, "[jul-capture] records=%d caller-cpu-ns=%.0f caller-bytes=%.0f "
                                + "flush-on-caller-cpu-ns=%.0f lines=%d load=%s%n", records, cpu / (double) records,
                        bytes / (double) records, drain / (double) records, lines, loadAverage());
            }
        }
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
