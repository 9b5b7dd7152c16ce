package dev.spool.events;

import static dev.spool.events.RecordDescriptor.HEADER_LENGTH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Walks the frames of an event file: returns each frame whose header is plausible and whose
 * CRC32C matches; reports everything else through {@link Listener} and resynchronises at the
 * next offset where a valid frame starts. Zero bytes to the end of the file are padding (the end
 * of data of a crashed memory-mapped writer), not a problem. Frame decoding and resynchronising
 * are {@link Frame}'s (shared with {@link EventTail}). Not thread-safe.
 */
final class FrameScanner {
    interface Listener {
        void problem(long offset, ReadProblem.Kind kind, String detail);
    }

    private static final int CHUNK = 64 << 10;

    private final FileChannel ch;
    private final long size;
    private final FileWindow window;
    private final Listener listener;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private long pos;
    private long paddingFrom = -1;
    private long knownNonZero = -1;
    private long recheckedAt = -1;

    FrameScanner(FileChannel ch, long start, Listener listener) throws IOException {
        this.ch = ch;
        this.size = ch.size();
        this.window = new FileWindow(ch, size);
        this.pos = start;
        this.listener = listener;
    }

    /** Where the zero padding at the end starts, or -1 when there is none. */
    long paddingFrom() {
        return paddingFrom;
    }

    long size() {
        return size;
    }

    /** The next valid frame, or null at the end of the data. */
    Frame next() throws IOException {
        while (pos < size) {
            long remaining = size - pos;
            if (remaining < HEADER_LENGTH) {
                if (zeroToEnd(pos)) {
                    paddingFrom = pos;
                } else {
                    listener.problem(pos, ReadProblem.Kind.TRUNCATED, remaining + " bytes, less than a frame header");
                }
                pos = size;
                return null;
            }
            readFully(header, pos, HEADER_LENGTH);
            int length = header.getInt(RecordDescriptor.LENGTH_OFFSET);
            if (RecordDescriptor.plausibleHeader(header, 0, remaining)) {
                Frame f = read(pos, length);
                if (f != null) {
                    pos += length;
                    return f;
                }
            }
            if (recheckedAt != pos) {
                // The window's copy may be older than the file (a live memory-mapped writer fills
                // the zeros ahead of its data): read this frame again from the file before calling
                // it padding or damage.
                recheckedAt = pos;
                window.drop();
                continue;
            }
            if (length == 0 && zeroToEnd(pos)) {
                paddingFrom = pos;
                pos = size;
                return null;
            }
            if (RecordDescriptor.plausibleHeader(header, 0, remaining)) {
                // read above, again from the file after the drop: its CRC32C did not match either time
                listener.problem(pos, ReadProblem.Kind.CORRUPT, "CRC32C mismatch in a frame of " + length + " bytes");
            } else if (length > remaining && RecordDescriptor.plausibleHeader(header, 0, Long.MAX_VALUE)) {
                listener.problem(pos, ReadProblem.Kind.TRUNCATED,
                        "frame of " + length + " bytes, only " + remaining + " left in the file");
            } else {
                listener.problem(pos, ReadProblem.Kind.CORRUPT, "implausible frame header (length " + length + ")");
            }
            pos = resync(pos + 1);
        }
        return null;
    }

    /** The first offset at or after {@code from} where a valid frame (or zero padding to the end) starts. */
    private long resync(long from) throws IOException {
        long at = Frame.resync(ch, crc, from, size, this::zeroToEnd);
        return at < 0 ? size : at;
    }

    /** True when every byte from {@code from} to the end is zero; remembers the last non-zero seen. */
    private boolean zeroToEnd(long from) throws IOException {
        if (from <= knownNonZero) {
            return false;
        }
        ByteBuffer b = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(1, size - from)));
        for (long p = from; p < size; p += b.capacity()) {
            int n = (int) Math.min(b.capacity(), size - p);
            Frame.readFully(ch, b, p, n); // from the file, not the window: padding is decided on what is there now
            for (int i = 0; i < n; i++) {
                if (b.get(i) != 0) {
                    knownNonZero = p + i;
                    return false;
                }
            }
        }
        return true;
    }

    /** The frame of {@code length} bytes at {@code at}, as {@link Frame#read} but through the window. */
    private Frame read(long at, int length) throws IOException {
        ByteBuffer whole = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        readFully(whole, at, length);
        return Frame.decode(whole, at, crc);
    }

    private void readFully(ByteBuffer b, long at, int n) throws IOException {
        window.readFully(b, at, n);
    }
}
