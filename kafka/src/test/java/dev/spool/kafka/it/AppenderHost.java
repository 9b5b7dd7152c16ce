package dev.spool.kafka.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The host program of {@link AppenderBench}: logs one event per call at a fixed rate for a fixed
 * time through one of the ways a user sends events to Kafka, and reports what the calling thread
 * paid. Args: {@code way perSecond}, way one of
 * <ul>
 *   <li>{@code spool}: {@link ShipHost#emit} (the agent routes it to the event file; its shipper
 *   sends to Kafka);</li>
 *   <li>{@code log4j}: a Log4j2 logger (its configuration, with a {@code Kafka} appender, comes from
 *   {@code -Dlog4j2.configurationFile});</li>
 *   <li>{@code slf4j}: an SLF4J logger (Logback with logback-kafka-appender, {@code -Dlogback.configurationFile}).</li>
 * </ul>
 * Every event carries its sequence number {@code i} ({@code "i":n} in Spool's JSON, {@code i=n} in
 * the loggers' text), so the consumer side counts distinct events. It logs until its third line
 * on stdin (or the end of stdin); the first two lines mark the phases "down" and "after" (the
 * bench sends them when it stopped the broker and when the broker answers again). A timer thread
 * prints, once a wall-clock second, {@code second s calls c maxCallNanos m} (a caller blocked inside
 * Kafka shows as seconds without calls); at the end: {@code done emitted n}, per phase the calls'
 * p50/p99/max/mean nanoseconds (the first second of "up" is left out: warm-up), the framework's
 * own shutdown and {@code closed in ms}.
 */
public final class AppenderHost {
    private static final AtomicLong CALLS = new AtomicLong();
    private static final AtomicLong MAX_CALL = new AtomicLong();
    /** Call index at which each phase began (written by the stdin thread, read at the end). */
    private static final long[] MARKS = {0, -1, -1, -1};
    private static volatile int phase;
    /** Calls made in the first wall-clock second (warm-up), set by the timer. */
    private static volatile long WARM_END;

    private AppenderHost() {
    }

    public static void main(String[] args) throws Exception {
        String way = args[0];
        int perSecond = Integer.parseInt(args[1]);
        Sender sender = sender(way);
        sender.send(-1); // the framework's start-up (and Kafka's first metadata) is not a measured call
        long[] took = new long[perSecond * 600];
        Thread control = new Thread(() -> {
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null && phase < 3; ) {
                    MARKS[phase + 1] = CALLS.get();
                    phase++;
                }
            } catch (Exception e) {
                // the end of input ends the run
            }
            MARKS[3] = CALLS.get();
            phase = 3;
        }, "bench-control");
        control.setDaemon(true);
        control.start();
        System.out.println("started");
        System.out.flush();
        Thread timer = new Thread(AppenderHost::report, "bench-timer");
        timer.setDaemon(true);
        long start = System.nanoTime();
        timer.start();
        int i = 0;
        while (phase < 3 && i < took.length) {
            long t0 = System.nanoTime();
            sender.send(i);
            took[i] = System.nanoTime() - t0;
            MAX_CALL.accumulateAndGet(took[i], Math::max);
            i++;
            CALLS.set(i);
            long due = start + i * 1_000_000_000L / perSecond;
            for (long left; (left = due - System.nanoTime()) > 0 && phase < 3; ) {
                LockSupport.parkNanos(left);
            }
        }
        long[] marks = MARKS.clone();
        marks[3] = i;
        System.out.println("done emitted " + i);
        String[] names = {"up", "down", "after"};
        for (int p = 0; p < 3; p++) {
            int from = (int) Math.min(i, Math.max(0, marks[p]));
            int to = (int) Math.min(i, Math.max(from, marks[p + 1] < 0 ? i : marks[p + 1]));
            // the first second of the first phase is warm-up
            from = p == 0 ? (int) Math.min(to, Math.max(from, WARM_END)) : from;
            long[] part = Arrays.copyOfRange(took, from, to);
            Arrays.sort(part);
            System.out.println("phase " + names[p] + " calls " + part.length + " p50Nanos " + pct(part, 50) + " p99Nanos " + pct(part, 99)
                    + " maxNanos " + (part.length == 0 ? 0 : part[part.length - 1]) + " meanNanos " + (part.length == 0 ? 0 : Arrays.stream(part).sum() / part.length));
        }
        System.out.flush();
        long c0 = System.nanoTime();
        sender.close();
        System.out.println("closed in " + (System.nanoTime() - c0) / 1_000_000 + " ms");
        System.out.flush();
    }

    private static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
    }

    private static void report() {
        long start = System.nanoTime();
        long before = 0;
        for (int s = 1; ; s++) {
            long due = start + TimeUnit.SECONDS.toNanos(s);
            for (long left; (left = due - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(left);
            }
            long calls = CALLS.get();
            if (s == 1) {
                WARM_END = calls;
            }
            System.out.println("second " + s + " calls " + (calls - before) + " maxCallNanos " + MAX_CALL.getAndSet(0));
            System.out.flush();
            before = calls;
        }
    }

    /** One event out; {@code i < 0} is the warm-up event before the measurement. */
    private interface Sender {
        void send(long i);

        void close() throws Exception;
    }

    private static Sender sender(String way) {
        switch (way) {
            case "spool":
                return new Sender() {
                    @Override
                    public void send(long i) {
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("i", i);
                        e.put("text", "event number " + i);
                        ShipHost.emit(e);
                    }

                    @Override
                    public void close() {
                        // the agent's shutdown hook: flush, then the shipper's bounded catch-up
                    }
                };
            case "log4j": {
                org.apache.logging.log4j.Logger log = org.apache.logging.log4j.LogManager.getLogger("bench");
                return new Sender() {
                    @Override
                    public void send(long i) {
                        log.info("event i={} text=event number {}", i, i);
                    }

                    @Override
                    public void close() {
                        org.apache.logging.log4j.LogManager.shutdown();
                    }
                };
            }
            case "slf4j": {
                org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger("bench");
                return new Sender() {
                    @Override
                    public void send(long i) {
                        log.info("event i={} text=event number {}", i, i);
                    }

                    @Override
                    public void close() throws Exception {
                        // Logback's LoggerContext.stop(), found without a compile-time dependency on Logback
                        Object factory = org.slf4j.LoggerFactory.getILoggerFactory();
                        factory.getClass().getMethod("stop").invoke(factory);
                    }
                };
            }
            default:
                throw new IllegalArgumentException("unknown way " + way);
        }
    }
}
