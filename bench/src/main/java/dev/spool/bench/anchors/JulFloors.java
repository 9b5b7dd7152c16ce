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
 */
public final class JulFloors {

    static volatile Object kept;

    private JulFloors() {
    }

    public static void main(String[] args) {
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

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
