package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.io.IOException;

/**
 * What a {@link FileShipper}'s status shows beyond its per-record counts, refreshed on the shipper's own
 * steps: how many records the file holds (a header walk from the read position, see {@link EventTail}) at
 * most every 100 ms, the JFR report at most every second, and both once more when the shipper stops (the
 * state it stops in).
 *
 * <p>Threads: the shipper thread only; the figures it sets are {@link ShipperStatus}'s (read by JMX threads).
 */
final class StatusRefresh {
    private static final long LAG_COUNT_NANOS = 100_000_000L;
    private static final long JFR_EVERY_NANOS = 1_000_000_000L;

    private final ShipperStatus status;
    private long lagCountedNanos;
    private long jfrReportedNanos;

    StatusRefresh(ShipperStatus status) {
        this.status = status;
    }

    /** At most every 100 ms: how many records the file holds (a header walk from the read position; see EventTail). */
    void ifDue(EventTail tail) throws IOException {
        long now = System.nanoTime();
        if (now - lagCountedNanos >= LAG_COUNT_NANOS) {
            lagCountedNanos = now;
            status.fileRecords = tail.recordsInFileEstimate();
        }
        if (now - jfrReportedNanos >= JFR_EVERY_NANOS) {
            jfrReportedNanos = now;
            status.reportToJfr();
        }
    }

    /** When the shipper stops: the file's records counted once more ({@code tail} null: not opened), then reported. */
    void last(EventTail tail) {
        try {
            if (tail != null) {
                status.fileRecords = tail.recordsInFileEstimate();
            }
        } catch (IOException ignored) {
            // the last count stands
        }
        status.reportToJfr(); // the state it stops in
    }
}
