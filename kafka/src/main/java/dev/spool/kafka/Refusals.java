package dev.spool.kafka;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * What a {@link FileShipper} does with records the broker refuses for good (too large, a timestamp
 * outside the broker's bounds, invalid: {@link InFlightWindow.Record#refusedForGood}): each is kept
 * in the {@link DeadLetters} file, counted and named on the Shipper bean, then passed, in file
 * order, before the checkpoint may move past it. A refused record fails its whole batch: its
 * batch-mates fail with a plain error and are resent after the usual rewind; the refusals seen in
 * that failed send are remembered by ordinal ({@link #remember}) so that, when read again, the
 * refused record is not sent again but dead-lettered in its turn ({@link #of}). A dead letter that
 * cannot be written is never passed: the record is retried as a failure, and the write with it.
 *
 * <p>Threads: the shipper thread's alone; not thread-safe.
 */
final class Refusals {
    private final Path file;
    private final DeadLetters deadLetters;
    private final ShipperStatus status;
    /** (problem key, message): the shipper's report. */
    private final BiConsumer<String, String> report;
    private final Map<Long, Exception> byOrdinal = new HashMap<>();

    Refusals(Path file, String topic, ShipperStatus status, BiConsumer<String, String> report) {
        this.file = file;
        this.deadLetters = new DeadLetters(file, topic);
        this.status = status;
        this.report = report;
    }

    /** The refusal remembered for the record of {@code ordinal}, or null. */
    Exception of(long ordinal) {
        return byOrdinal.get(ordinal);
    }

    /** A send failed: remembers the records of {@code inFlight} the broker refused for good. */
    void remember(InFlightWindow inFlight) {
        inFlight.forEach(r -> {
            if (r.state == InFlightWindow.Record.REFUSED) {
                byOrdinal.put(r.ordinal, r.error);
            }
        });
    }

    /** Forgets every refusal (the file is shipped again from its start: the ordinals name other records). */
    void clear() {
        byOrdinal.clear();
    }

    /** Keeps a refused record in the dead-letter file; true when kept (it may be passed). */
    boolean keep(InFlightWindow.Record h) {
        String reason = FileShipper.rootMessage(h.error);
        try {
            deadLetters.keep(h.key, h.ordinal, h.offset, h.timestamp, reason, h.value);
        } catch (IOException | RuntimeException e) {
            String why = "record " + h.key + " (offset " + h.offset + " of " + file + ") refused by Kafka (" + reason
                    + ") and not written to " + deadLetters.path() + ": " + e + "; retried";
            status.error(why);
            report.accept("dead-letter-write", why);
            return false;
        }
        byOrdinal.remove(h.ordinal);
        String what = "record " + h.key + " (offset " + h.offset + " of " + file + ") refused by Kafka: " + reason
                + "; kept in " + deadLetters.path() + (h.error instanceof RecordTooLargeException
                ? " (raise spool.kafka.max.request.size and the topic's max.message.bytes)" : "");
        status.deadLettered(what);
        report.accept("dead-letter:" + h.key, what);
        return true;
    }
}
