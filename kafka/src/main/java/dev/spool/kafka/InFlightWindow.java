package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The records a {@link FileShipper} has sent and Kafka has not yet settled, oldest first, with
 * their bytes: the bound on read-ahead ({@link #MAX_RECORDS}, {@link #MAX_BYTES}).
 *
 * <p><b>Threads.</b> Owned by the shipper thread: only it adds, peeks, retires and clears. The
 * producer's I/O thread only completes a {@link Record} (its volatile {@code state}, then an
 * unpark of the shipper), so a record's outcome is read by the shipper without a lock. Not
 * thread-safe otherwise.
 *
 * <pre>{@code
 * InFlightWindow.Record r = window.add(tailed, value.length, shipperThread);
 * producer.send(record, r);                    // r.onCompletion runs on the producer's I/O thread
 * for (Record h; (h = window.peek()) != null && h.state != Record.PENDING; ) { window.retire(); ... }
 * }</pre>
 */
final class InFlightWindow {
    /** Sent and unacknowledged records at most. */
    static final int MAX_RECORDS = 10_000;
    /** Bytes of sent and unacknowledged record values at most (beside the producer's {@code buffer.memory}). */
    static final long MAX_BYTES = 16L << 20;
    /** Records read from the file per step at most. */
    private static final int MAX_BATCH = 512;

    private final ArrayDeque<Record> records = new ArrayDeque<>();
    private long bytes;

    /** How many more records may be read now: 0 when either bound is reached. */
    int room() {
        return bytes >= MAX_BYTES ? 0 : Math.min(MAX_BATCH, MAX_RECORDS - records.size());
    }

    Record add(EventTail.Tailed t, long valueBytes, Thread shipper) {
        Record r = new Record(t, valueBytes, shipper);
        records.add(r);
        bytes += valueBytes;
        return r;
    }

    /** The oldest record, or null when none is in flight. */
    Record peek() {
        return records.peek();
    }

    /** Removes the oldest record (after its outcome was read). */
    void retire() {
        bytes -= records.poll().bytes;
    }

    /** Forgets every record (after a failure: they are read and sent again). */
    void clear() {
        records.clear();
        bytes = 0;
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    /** A record sent and not yet settled; completed by the producer's I/O thread. */
    static final class Record implements Callback {
        static final int PENDING = 0, ACKED = 1, FAILED = 2, TOO_LARGE = 3;
        final long ordinal;
        /** Where a tail resumes right after this record, or null when no clean point is there. */
        final EventTail.Position resume;
        final long end;
        final long bytes;
        private final Thread shipper;
        volatile int state;
        volatile Exception error;

        private Record(EventTail.Tailed t, long bytes, Thread shipper) {
            this.ordinal = t.ordinal();
            this.resume = t.resume();
            this.end = t.end();
            this.bytes = bytes;
            this.shipper = shipper;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            error = e;
            state = e == null ? ACKED : e instanceof RecordTooLargeException ? TOO_LARGE : FAILED;
            LockSupport.unpark(shipper);
        }
    }
}
