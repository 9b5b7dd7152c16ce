package dev.spool.mbeans;

import dev.spool.sink.SinkMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns growth of a sink's {@code dropped} and {@code errors} counters into notifications. The
 * sink's hot path knows nothing of JMX: one daemon thread ({@code spool-mbeans-watch}) samples
 * every registered sink each {@link #PERIOD_MILLIS} ms, so a notification follows a drop or an
 * error within about a second.
 *
 * <p>Thread-safe; {@link #watch} and {@link #unwatch} may be called from any thread.
 */
final class SinkWatch {
    static final long PERIOD_MILLIS = 500;

    private final Map<SinkMetrics, Sampled> watched = new ConcurrentHashMap<>();
    private volatile Thread thread;

    void watch(SinkMetrics sink, SpoolNotifier notifier) {
        watched.put(sink, new Sampled(notifier, sink.dropped(), sink.errors()));
        ensureStarted();
    }

    void unwatch(SinkMetrics sink) {
        watched.remove(sink);
    }

    void stop() {
        Thread t = thread;
        thread = null;
        if (t != null) {
            t.interrupt();
        }
    }

    private synchronized void ensureStarted() {
        if (thread == null) {
            Thread t = new Thread(this::run, "spool-mbeans-watch");
            t.setDaemon(true);
            thread = t;
            t.start();
        }
    }

    private void run() {
        while (thread == Thread.currentThread()) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            watched.forEach(SinkWatch::sample);
        }
    }

    private static void sample(SinkMetrics sink, Sampled s) {
        try {
            long dropped = sink.dropped();
            long errors = sink.errors();
            if (dropped > s.dropped) {
                s.notifier.send(SpoolNotifier.EVENTS_DROPPED, (dropped - s.dropped) + " event(s) dropped by "
                        + sink.path() + " (policy drop; buffers full)", dropped - s.dropped);
            }
            if (errors > s.errors) {
                s.notifier.send(SpoolNotifier.WRITE_ERROR, "writing " + sink.path() + " failed (the writer retries): "
                        + sink.lastError(), errors - s.errors);
            }
            // counters may go down after resetStatistics(): follow them
            s.dropped = dropped;
            s.errors = errors;
        } catch (RuntimeException e) {
            // a sink that went away mid-sample: nothing to report
        }
    }

    private static final class Sampled {
        final SpoolNotifier notifier;
        volatile long dropped;
        volatile long errors;

        Sampled(SpoolNotifier notifier, long dropped, long errors) {
            this.notifier = notifier;
            this.dropped = dropped;
            this.errors = errors;
        }
    }
}
