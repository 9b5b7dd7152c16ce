package dev.spool.bench.anchors;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU time per event of the realistic-layout contenders (issue 13's floor): what the caller's
 * threads spend and what the whole process spends, measured with {@code ThreadMXBean} and the
 * process's CPU time, so the figures hold on a loaded machine (wall time is printed too, labelled).
 *
 * <p>Contenders: every {@link LayoutLines} one ({@code logbackFile} is Spool's row when the JVM runs
 * the agent), plus two that write nothing:
 * <ul>
 *   <li>{@code logbackFloor}: a Logback logger into an appender that only does what must happen on
 *       the caller's thread before encoding elsewhere ({@code prepareForDeferredProcessing}, and
 *       the caller data for the {@code caller} layout), then discards: the least any deferred
 *       Logback can cost its caller;</li>
 *   <li>{@code logbackEncode}: the same plus the encoder's {@code encode} into a discarded array:
 *       floor + the encoding thread's own work per event.</li>
 * </ul>
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.spool.bench.anchors.LayoutCpuCost
 * <contender> <realistic|caller> <threads> <events> [rounds]}; the first round warms up, the others print.
 */
public final class LayoutCpuCost {

    /** Where the floor's appender hands each event (volatile: it escapes the logging call). */
    static volatile Object handedOff;

    private LayoutCpuCost() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        String layout = args[1];
        int threads = Integer.parseInt(args[2]);
        int events = Integer.parseInt(args[3]);
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int round = 0; round < rounds; round++) {
            Path file = Files.createTempFile("spool-cpu-" + name + "-", ".log");
            Contender c = open(name, layout, file);
            AtomicLong callerCpu = new AtomicLong();
            java.util.Map<String, Long> spool0 = spoolThreadsCpu(mx);
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            int per = events / threads;
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int from = t * per;
                ts[t] = new Thread(() -> {
                    long start = mx.getCurrentThreadCpuTime();
                    for (int i = from; i < from + per; i++) {
                        c.log(i);
                    }
                    callerCpu.addAndGet(mx.getCurrentThreadCpuTime() - start);
                }, "anchor-producer-" + t);
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            long callersDone = System.nanoTime() - t0;
            c.stop();
            long wall = System.nanoTime() - t0;
            long cpu = os.getProcessCpuTime() - cpu0;
            java.util.Map<String, Long> spool1 = spoolThreadsCpu(mx);
            spool1.replaceAll((k, v) -> v - spool0.getOrDefault(k, 0L));
            long lines = name.startsWith("logbackFloor") || name.startsWith("logbackEncode") ? -1 : Workload.countLines(file);
            Files.delete(file);
            try (java.util.stream.Stream<Path> rolled = Files.list(file.getParent())) { // logbackRolling's archives
                for (Path p : (Iterable<Path>) rolled.filter(p -> p.getFileName().toString().startsWith(file.getFileName() + "."))::iterator) {
                    lines += Workload.countLines(p);
                    Files.delete(p);
                }
            }
            if (round > 0) {
                double n = per * (double) threads;
                System.out.printf(Locale.ROOT, "[cpu-cost] contender=%s layout=%s threads=%d events=%d caller-cpu-ns=%.0f "
                                + "process-cpu-ns=%.0f spool-threads-cpu-ns=%s wall-ns(loaded?)=%.0f callers-wall-ns=%.0f lines=%d load=%s%n",
                        name, layout, threads, (long) n, callerCpu.get() / n, cpu / n, perEvent(spool1, n), wall / n,
                        callersDone / n, lines, Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            }
            System.gc();
        }
    }

    /** CPU time of Spool's threads alive now, summed by name with digits and file names cut (pool, sink writer). */
    private static java.util.Map<String, Long> spoolThreadsCpu(ThreadMXBean mx) {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            if (n.startsWith("spool-")) {
                long c = mx.getThreadCpuTime(t.getId());
                String key = n.startsWith("spool-capture-writer") ? "pool" : n.startsWith("spool-sink") ? "sink" : n.replaceAll("[0-9]+", "N");
                out.merge(key.length() > 24 ? key.substring(0, 24) : key, Math.max(0, c), Long::sum);
            }
        }
        return out;
    }

    private static String perEvent(java.util.Map<String, Long> cpu, double n) {
        StringBuilder b = new StringBuilder();
        cpu.forEach((k, v) -> b.append(b.length() == 0 ? "" : ",").append(k).append(':').append(Math.round(v / n)));
        return b.toString();
    }

    private static Contender open(String name, String layout, Path file) {
        boolean caller = "caller".equals(layout);
        switch (name) {
            case "logbackFloor":
                return floor(caller, false);
            case "logbackEncode":
                return floor(caller, true);
            default:
                return LayoutLines.open(name, layout, file);
        }
    }

    /** A Logback logger into an appender that prepares each event (and encodes it, if asked) and discards it. */
    private static Contender floor(boolean caller, boolean encode) {
        LoggerContext ctx = LayoutLines.logbackContext();
        PatternLayoutEncoder enc = LayoutLines.logbackEncoder(ctx, caller);
        AtomicLong sink = new AtomicLong();
        UnsynchronizedAppenderBase<ILoggingEvent> discard = new UnsynchronizedAppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                event.prepareForDeferredProcessing();
                if (caller) {
                    event.getCallerData();
                }
                if (encode) {
                    sink.addAndGet(enc.encode(event).length);
                }
                handedOff = event; // the event escapes, as into a queue: the JIT cannot scalar-replace it away
            }
        };
        discard.setContext(ctx);
        discard.setName("discard");
        discard.start();
        return LayoutLines.logbackContender(ctx, discard);
    }
}
