package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTimestampException;
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
 * InFlightWindow.Record r = window.add(tailed, key, value, shipperThread);
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

    Record add(EventTail.Tailed t, String key, byte[] value, Thread shipper) {
        Record r = new Record(t, key, value, shipper);
        records.add(r);
        bytes += value.length;
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

    /** Each record in flight, oldest first. */
    void forEach(java.util.function.Consumer<Record> each) {
        records.forEach(each);
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    /** A record sent and not yet settled; completed by the producer's I/O thread. */
    static final class Record implements Callback {
        /**
         * States: waiting; acknowledged; failed (retried from the last acknowledged record); refused
         * for good by the broker (too large, a timestamp outside its bounds, invalid): dead-lettered.
         */
        static final int PENDING = 0, ACKED = 1, FAILED = 2, REFUSED = 3;
        final long ordinal;
        /** Where a tail resumes right after this record, or null when no clean point is there. */
        final EventTail.Position resume;
        final long end;
        final long lastFrameAt;
        final int lastFrameCrc;
        /** The record's frame offset and timestamp, its key and value: what a dead letter keeps. */
        final long offset;
        final long timestamp;
        final String key;
        final byte[] value;
        final long bytes;
        private final Thread shipper;
        volatile int state;
        volatile Exception error;

        private Record(EventTail.Tailed t, String key, byte[] value, Thread shipper) {
            this.ordinal = t.ordinal();
            this.resume = t.resume();
            this.end = t.end();
            this.lastFrameAt = t.lastFrameAt();
            this.lastFrameCrc = t.lastFrameCrc();
            this.offset = t.record().offset();
            this.timestamp = t.record().timestampMillis();
            this.key = key;
            this.value = value;
            this.bytes = value.length;
            this.shipper = shipper;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            error = e;
            state = e == null ? ACKED : refusedForGood(e) ? REFUSED : FAILED;
            LockSupport.unpark(shipper);
        }

        /**
         * Errors about this record itself, which no resend can change. A batch-mate of a refused
         * record fails with a plain {@code KafkaException} instead, and is resent.
         */
        static boolean refusedForGood(Exception e) {
            return e instanceof RecordTooLargeException || e instanceof InvalidTimestampException
                    || e instanceof InvalidRecordException;
        }
    }
}
