package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * How far one {@link FileShipper} has shipped its file: the stream id its records are keyed by,
 * the file's fingerprint ({@link FileFingerprint}), the position right after the last record Kafka
 * acknowledged (where a failed send rewinds to) and the {@link Checkpoint} that persists them:
 * written at most every 200 ms while records are acknowledged, and at once after a failure and at
 * the end. On start, the checkpoint's position is taken only when it is this file's (same
 * fingerprint, not past the file's size, the frame acknowledged last still ending there); else
 * shipping starts over from the file's start under a new stream id.
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
    private long lastFrameAt = -1;
    private int lastFrameCrc;
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
     * The position to ship {@code t} from, its fingerprint being {@code fingerprint}
     * ({@link FileFingerprint}): the checkpoint's when it belongs to this file, else the start;
     * sets the stream id (the checkpoint's, or a new one for {@code host}). The checkpoint's
     * position is this file's when its fingerprint matches, its offset is within the file and the
     * frame it acknowledged last is still there, ending at that offset. A file with the same
     * fingerprint that fails the rest was cut short (and maybe grown again) since: it is shipped
     * from its start under a stream id derived from the checkpoint's, so no key is used twice.
     */
    EventTail.Position resume(EventTail t, String fingerprint, String host) throws IOException {
        this.fingerprint = fingerprint;
        Checkpoint.State s = null;
        try {
            s = checkpoint.read();
        } catch (IOException e) {
            report.accept("checkpoint-bad", e.getMessage() + "; shipping " + file + " from its start");
        }
        if (s != null && s.fingerprint.equals(fingerprint)) {
            String cut = notThisFile(t, s);
            if (cut == null) {
                stream = s.stream;
                return s.position;
            }
            startOver(s.stream, checkpoint.path() + ": " + cut);
            return EventTail.Position.START;
        }
        if (s != null) {
            report.accept("checkpoint-other", checkpoint.path() + " belongs to an earlier file of that name (replaced);"
                    + " shipping " + file + " from its start");
        }
        stream = StreamIds.stream(host, fingerprint);
        return EventTail.Position.START;
    }

    /** Why the checkpoint's position is not in this file any more, or null when it is. */
    private static String notThisFile(EventTail t, Checkpoint.State s) throws IOException {
        long offset = s.position.offset();
        long size = t.size();
        if (offset > size) {
            return "offset " + offset + " is past the file's end (" + size + " bytes)";
        }
        if (s.lastFrameAt < 0) {
            return null; // nothing acknowledged yet, or a checkpoint written before the last frame was kept
        }
        byte[] h = t.frameHeaderAt(s.lastFrameAt);
        ByteBuffer b = h == null ? null : ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        if (b == null || s.lastFrameAt + b.getInt(0) != offset || b.getInt(4) != s.lastFrameCrc) {
            return "the frame acknowledged last (at offset " + s.lastFrameAt + ", ending at " + offset
                    + ") is not in the file any more";
        }
        return null;
    }

    /**
     * The file was cut short under the position acknowledged for {@code oldStream}: ship it again
     * from its start under a stream id derived from that one (the same for every retry, new for
     * each cut), and save that at once.
     */
    void startOver(String oldStream, String why) {
        stream = StreamIds.restarted(oldStream);
        String message = why + "; the file was cut short since: shipping " + file + " again from its start under the"
                + " new stream id " + stream;
        status.error(message);
        report.accept("file-cut:" + stream, message);
        acked(EventTail.Position.START, -1, 0);
    }

    /**
     * Kafka acknowledged the records up to {@code resume}, the frame at {@code lastFrameAt} (stored
     * CRC32C {@code lastFrameCrc}) ending there: the next checkpoint write saves it.
     */
    void acked(EventTail.Position resume, long lastFrameAt, int lastFrameCrc) {
        acked = resume;
        this.lastFrameAt = lastFrameAt;
        this.lastFrameCrc = lastFrameCrc;
        ackedDirty = true;
    }

    /** Writes the checkpoint when an acknowledgement moved it and 200 ms have passed since the last write, or {@code now}. */
    void checkpointIfDue(boolean now) {
        long t = System.nanoTime();
        if (!ackedDirty || checkpoint == null || (!now && t - lastCheckpointNanos < CHECKPOINT_EVERY_NANOS)) {
            return;
        }
        try {
            checkpoint.write(new Checkpoint.State(stream, fingerprint, acked, lastFrameAt, lastFrameCrc));
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
