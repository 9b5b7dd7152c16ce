package dev.spool.events;

import static dev.spool.events.RecordDescriptor.HEADER_LENGTH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link EventTail#recordsInFileEstimate()}: counts the records the whole frames ahead of a
 * tail's position complete, walking frame headers only (in {@link TailFile#CHUNK} reads, without
 * CRC check or decoding), and continues where its last call stopped. It stops at the first
 * implausible header (damage, or a frame still being appended), so it may count a frame that a
 * later poll skips as damage; it starts over from the tail's position whenever the tail has
 * caught up with it.
 *
 * <p>Not thread-safe: used by its one tail's thread only, as the tail is.
 */
final class RecordCountAhead {
    private final TailFile in;
    private ByteBuffer ahead;
    private long aheadPos = -1;
    private long aheadOrdinal;

    RecordCountAhead(TailFile in) {
        this.in = in;
    }

    /** The tail's next ordinal ({@code ordinal}, at {@code pos}) plus the records counted ahead of it. */
    long estimate(long pos, long ordinal) throws IOException {
        if (aheadPos <= pos) {
            aheadPos = pos;
            aheadOrdinal = ordinal;
        }
        if (ahead == null) {
            ahead = ByteBuffer.allocate(TailFile.CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        }
        long size = in.size();
        while (size - aheadPos >= HEADER_LENGTH) {
            int n = (int) Math.min(TailFile.CHUNK, size - aheadPos);
            in.readFully(ahead, aheadPos, n);
            int i = 0;
            while (n - i >= HEADER_LENGTH && RecordDescriptor.plausibleHeader(ahead, i, size - aheadPos - i)) {
                byte flags = ahead.get(i + RecordDescriptor.FLAGS_OFFSET);
                if ((flags & RecordDescriptor.FLAG_PART) == 0 || (flags & RecordDescriptor.FLAG_LAST) != 0) {
                    aheadOrdinal++;
                }
                i += ahead.getInt(i + RecordDescriptor.LENGTH_OFFSET);
            }
            if (i == 0) {
                break;
            }
            aheadPos += i;
        }
        return Math.max(aheadOrdinal, ordinal);
    }
}
