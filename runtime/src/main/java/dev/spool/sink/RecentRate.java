package dev.spool.sink;

/**
 * Cumulative counts and their rate over the last {@value #WINDOW_SECONDS} seconds, from samples
 * taken at most once a second. Thread-safe (synchronized; updated by the writer once per write).
 */
final class RecentRate {
    static final int WINDOW_SECONDS = 10;
    private static final long SECOND = 1_000_000_000L;

    private final long[] times = new long[WINDOW_SECONDS + 2];
    private final long[] events = new long[WINDOW_SECONDS + 2];
    private final long[] bytes = new long[WINDOW_SECONDS + 2];
    private int head;
    private int size;
    private long totalEvents;
    private long totalBytes;

    synchronized void add(long ev, long by, long now) {
        totalEvents += ev;
        totalBytes += by;
        sample(now);
    }

    synchronized long totalEvents() {
        return totalEvents;
    }

    synchronized long totalBytes() {
        return totalBytes;
    }

    synchronized double eventsPerSecond(long now) {
        return rate(now, true);
    }

    synchronized double bytesPerSecond(long now) {
        return rate(now, false);
    }

    synchronized void reset(long now) {
        totalEvents = 0;
        totalBytes = 0;
        size = 0;
        sample(now);
    }

    private double rate(long now, boolean ofEvents) {
        sample(now);
        int oldest = (head - size + 1 + times.length) % times.length;
        long dt = now - times[oldest];
        if (dt <= 0) {
            return 0;
        }
        long d = ofEvents ? totalEvents - events[oldest] : totalBytes - bytes[oldest];
        return d * (double) SECOND / dt;
    }

    private void sample(long now) {
        while (size > 0) {
            int oldest = (head - size + 1 + times.length) % times.length;
            if (now - times[oldest] > WINDOW_SECONDS * SECOND) {
                size--;
            } else {
                break;
            }
        }
        if (size == 0 || now - times[head] >= SECOND) {
            head = (head + 1) % times.length;
            times[head] = now;
            events[head] = totalEvents;
            bytes[head] = totalBytes;
            size = Math.min(size + 1, times.length);
        }
    }
}
