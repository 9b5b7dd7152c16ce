package dev.spool.kafka;

import dev.spool.events.EventTail;
import dev.spool.events.ReadProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The event file a shipper waits for, until it shows its fingerprint ({@link FileFingerprint}).
 * Its channel stays open while the shipper waits (closing a channel of the file can drop the
 * writer's lock on it: POSIX record locks belong to the process), except when the file was
 * deleted and recreated under the same name meanwhile: its identity (device and inode, which the
 * held channel keeps from being reused) differs, so that channel shows the old file; it is put
 * aside, closed only at the end, and the new file opened.
 *
 * <p>Threads: the shipper thread's alone; not thread-safe.
 */
final class FileOpening {
    private final Path file;
    private final boolean finalMode;
    private final Consumer<ReadProblem> problems;
    private final FileFingerprint fingerprint = new FileFingerprint();
    /** Channels of files deleted or replaced before their first frame. */
    private final List<EventTail> stale = new ArrayList<>();
    private EventTail opening;
    private Object openingKey;

    FileOpening(Path file, boolean finalMode, Consumer<ReadProblem> problems) {
        this.file = file;
        this.finalMode = finalMode;
        this.problems = problems;
    }

    /** The tail of the file now under its name (opened at its start), or null while there is none. */
    EventTail current() throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        if (opening != null && !Objects.equals(openingKey, fileKey())) {
            stale.add(opening); // deleted and recreated while waiting: that channel shows the old file
            opening = null;
        }
        if (opening == null) {
            Object key = fileKey();
            EventTail t = EventTail.open(file, EventTail.Position.START, finalMode, problems);
            if (!Objects.equals(key, fileKey())) {
                stale.add(t); // replaced while opening: open again at the next call
                return null;
            }
            opening = t;
            openingKey = key;
        }
        return opening;
    }

    /** The fingerprint of {@code current()}'s file, or null while it shows none ({@link FileFingerprint}). */
    String fingerprint(EventTail t) throws IOException {
        return fingerprint.of(t, finalMode);
    }

    /** True when the file has no valid frame to ship (none under its name, or none in it yet). */
    boolean nothingToShip() throws IOException {
        return !Files.isRegularFile(file) || (opening != null && opening.firstValidFrameAt() < 0);
    }

    /** At the end: closes the channels put aside. */
    void closeStale() throws IOException {
        for (EventTail t : stale) {
            t.close();
        }
        stale.clear();
    }

    private Object fileKey() {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }
}
