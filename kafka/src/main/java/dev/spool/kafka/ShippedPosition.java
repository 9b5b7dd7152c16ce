package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * How far one {@link FileShipper} has shipped its file: the stream id its records are keyed by,
 * the file's fingerprint (its first frame), the position right after the last record Kafka
 * acknowledged (where a failed send rewinds to) and the {@link Checkpoint} that persists them:
 * written at most every 200 ms while records are acknowledged, and at once after a failure and at
 * the end. On start, the checkpoint's position is taken only when it is this file's (same
 * fingerprint, not past the file's size); else shipping starts over under a new stream id.
 *
 * <p>Threads: the shipper thread's alone (like the rest of its shipping state); not thread-safe.
 */
final class ShippedPosition {
    private static final long CHECKPOINT_EVERY_NANOS = 200_000_000L;

    private final Path file;
    private final String topic;
    private final ShipperStatus status;
    /** (problem key, one-line message): the shipper's report. */
    private final BiConsumer<String, String> report;

    private Checkpoint checkpoint;
    /** The stream id of the file's records (their keys' prefix, the partition's choice); null until opened. */
    String stream;
    private String fingerprint;
    /** Where the tail resumes after the last record acknowledged; null until opened. */
    EventTail.Position acked;
    private boolean ackedDirty;
    private long lastCheckpointNanos;

    ShippedPosition(Path file, String topic, ShipperStatus status, BiConsumer<String, String> report) {
        this.file = file;
        this.topic = topic;
        this.status = status;
        this.report = report;
    }

    /** Takes the file's checkpoint (its lock) once. */
    void lockCheckpoint() throws IOException {
        if (checkpoint == null) {
            checkpoint = Checkpoint.lock(file, topic);
        }
    }

    /**
     * The position to ship {@code t} from, its first frame's header being {@code first}: the
     * checkpoint's when it belongs to this file, else the start; sets the fingerprint and the
     * stream id (the checkpoint's, or a new one for {@code host}).
     */
    EventTail.Position resume(EventTail t, byte[] first, String host) throws IOException {
        fingerprint = StreamIds.fingerprint(first);
        Checkpoint.State s = null;
        try {
            s = checkpoint.read();
        } catch (IOException e) {
            report.accept("checkpoint-bad", e.getMessage() + "; shipping " + file + " from its start");
        }
        EventTail.Position from = EventTail.Position.START;
        if (s != null && s.fingerprint.equals(fingerprint) && s.position.offset() <= t.size()) {
            stream = s.stream;
            from = s.position;
        } else {
            if (s != null) {
                report.accept("checkpoint-other", checkpoint.path() + " belongs to an earlier file of that name (replaced or"
                        + " truncated); shipping " + file + " from its start");
            }
            stream = StreamIds.stream(host, fingerprint);
        }
        return from;
    }

    /** Kafka acknowledged the records up to {@code resume}: the next checkpoint write saves it. */
    void acked(EventTail.Position resume) {
        acked = resume;
        ackedDirty = true;
    }

    /** Writes the checkpoint when an acknowledgement moved it and 200 ms have passed since the last write, or {@code now}. */
    void checkpointIfDue(boolean now) {
        long t = System.nanoTime();
        if (!ackedDirty || checkpoint == null || (!now && t - lastCheckpointNanos < CHECKPOINT_EVERY_NANOS)) {
            return;
        }
        try {
            checkpoint.write(new Checkpoint.State(stream, fingerprint, acked));
            ackedDirty = false;
            lastCheckpointNanos = t;
        } catch (IOException e) {
            String why = "cannot write the checkpoint " + checkpoint.path() + ": " + e.getMessage();
            status.error(why);
            report.accept("checkpoint-write", why);
        }
    }

    /** Releases the checkpoint (its lock), if it was taken. */
    void closeCheckpoint() throws IOException {
        if (checkpoint != null) {
            checkpoint.close();
        }
    }
}
