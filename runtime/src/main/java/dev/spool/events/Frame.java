package dev.spool.events;

import static dev.spool.events.RecordDescriptor.HEADER_LENGTH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * One valid frame of an event file (its fields as {@link RecordDescriptor} lays them out), and the
 * frame-level reading both {@link FrameScanner} (whole files) and {@link EventTail} (a file being
 * written) use: read and CRC-check a frame, and find the next valid frame after damage.
 * {@code payload} is a fresh heap buffer. Not thread-safe (callers pass their own CRC32C).
 */
final class Frame {
    private static final int CHUNK = 64 << 10;

    long offset;
    int flags;
    int partIndex;
    long timestamp;
    long threadId;
    ByteBuffer payload;

    /** Whether every byte from an offset to the end of the file is zero (the padding of a crashed memory-mapped writer). */
    interface PaddingCheck {
        boolean zeroToEnd(long from) throws IOException;
    }

    /** The frame in {@code whole} (header and payload, read from {@code at}); null when its CRC32C does not match. */
    static Frame decode(ByteBuffer whole, long at, CRC32C crc) {
        int length = whole.limit();
        int stored = whole.getInt(RecordDescriptor.CRC_OFFSET);
        if (stored != RecordDescriptor.crc(crc, whole, 0, whole, HEADER_LENGTH, length - HEADER_LENGTH)) {
            return null;
        }
        Frame f = new Frame();
        f.offset = at;
        f.flags = whole.get(RecordDescriptor.FLAGS_OFFSET);
        f.partIndex = whole.getInt(RecordDescriptor.PART_INDEX_OFFSET);
        f.timestamp = whole.getLong(RecordDescriptor.TIMESTAMP_OFFSET);
        f.threadId = whole.getLong(RecordDescriptor.THREAD_ID_OFFSET);
        f.payload = whole.slice(HEADER_LENGTH, length - HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        return f;
    }

    /** Reads the frame of {@code length} bytes at {@code at} and {@linkplain #decode decodes} it. */
    static Frame read(FileChannel ch, long at, int length, CRC32C crc) throws IOException {
        ByteBuffer whole = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, whole, at, length);
        return decode(whole, at, crc);
    }

    /**
     * The first offset at or after {@code from} (and before {@code size}) where a valid frame
     * starts, or where {@code paddingToEnd} (null: never) says zero padding runs to the end; -1
     * when there is neither.
     */
    static long resync(FileChannel ch, CRC32C crc, long from, long size, PaddingCheck paddingToEnd) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK + HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        for (long base = from; base < size; base += CHUNK) {
            int n = (int) Math.min(chunk.capacity(), size - base);
            readFully(ch, chunk, base, n);
            for (int i = 0; i < Math.min(CHUNK, n); i++) {
                long at = base + i;
                if (n - i >= HEADER_LENGTH) {
                    if (RecordDescriptor.plausibleHeader(chunk, i, size - at) && read(ch, at, chunk.getInt(i), crc) != null) {
                        return at;
                    }
                    if (paddingToEnd != null && chunk.getInt(i) == 0 && paddingToEnd.zeroToEnd(at)) {
                        return at;
                    }
                } else if (paddingToEnd != null && chunk.get(i) == 0 && paddingToEnd.zeroToEnd(at)) {
                    return at;
                }
            }
        }
        return -1;
    }

    /** Fills {@code b} with {@code n} bytes from {@code at}, flipped for reading. */
    static void readFully(FileChannel ch, ByteBuffer b, long at, int n) throws IOException {
        b.clear().limit(n);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                throw new IOException("file shrank while reading at offset " + (at + b.position()));
            }
        }
        b.flip();
    }
}
