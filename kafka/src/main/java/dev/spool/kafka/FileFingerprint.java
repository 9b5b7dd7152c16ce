package dev.spool.kafka;

import dev.spool.events.EventTail;
import java.io.IOException;

/**
 * Tells an event file's fingerprint ({@link StreamIds}) once the file shows it: the hash of its
 * first frame's header when that frame is whole and valid; when it is not but a valid frame
 * follows, the hash of the first valid frame's header and offset. For a file still being written
 * ({@code finalMode} false) the damaged start is believed only once it has stayed so, with the
 * same valid frame after it, for {@link EventTail#SETTLE_NANOS} (the rule by which
 * {@link EventTail} skips damage): a first frame still being written is waited for, never taken
 * for damage. So the fingerprint, and the stream id derived from it, never depends on frame 0
 * being valid, and is the same for every shipper of the same bytes.
 *
 * <p>Threads: the shipper thread's alone; not thread-safe.
 */
final class FileFingerprint {
    private long badStartAt = -1;
    private long badStartSince;

    /** The fingerprint of {@code t}'s file, or null while the file shows none (yet). */
    String of(EventTail t, boolean finalMode) throws IOException {
        byte[] first = t.firstFrameHeader();
        if (first != null) {
            return StreamIds.fingerprint(first);
        }
        long at = t.firstValidFrameAt();
        if (at < 0) {
            badStartAt = -1;
            return null;
        }
        if (!finalMode) {
            long now = System.nanoTime();
            if (badStartAt != at) {
                badStartAt = at;
                badStartSince = now;
                return null;
            }
            if (now - badStartSince < EventTail.SETTLE_NANOS) {
                return null;
            }
        }
        byte[] h = t.frameHeaderAt(at);
        return h == null ? null : StreamIds.fingerprintAfterDamage(at, h);
    }
}
