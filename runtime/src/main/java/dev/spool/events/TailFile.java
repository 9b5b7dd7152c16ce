package dev.spool.events;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The file an {@link EventTail} follows, as its reads outside the poll's window see it: whole
 * positional reads whose errors name the file, and where the data ends when a crashed
 * memory-mapped writer left zero padding after it.
 *
 * <p>Not thread-safe: used by its one tail's thread only, as the tail is. It never closes the
 * channel; the tail does.
 */
final class TailFile {
    /** The size of one read of a walk over the file (zero padding, frame headers). */
    static final int CHUNK = 64 << 10;

    private final Path file;
    private final FileChannel ch;

    TailFile(Path file, FileChannel ch) {
        this.file = file;
        this.ch = ch;
    }

    /** The file's current size. */
    long size() throws IOException {
        return ch.size();
    }

    /** Fills {@code b} with {@code n} bytes from {@code at}, flipped for reading; an error names the file. */
    void readFully(ByteBuffer b, long at, int n) throws IOException {
        try {
            Frame.readFully(ch, b, at, n);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the data ends in final mode, for a tail at {@code pos}: the start of zero padding, or
     * the size. {@code scratch} holds at least 4 bytes; its content is overwritten.
     */
    long dataEnd(long pos, ByteBuffer scratch) throws IOException {
        long size = ch.size();
        if (pos < size && size - pos >= 4) {
            readFully(scratch, pos, 4);
            if (scratch.getInt(0) == 0 && zeroToEnd(pos, size)) {
                return pos;
            }
        }
        return size;
    }

    /** True when every byte from {@code from} up to {@code size} is zero. */
    boolean zeroToEnd(long from, long size) throws IOException {
        ByteBuffer b = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(1, size - from)));
        for (long p = from; p < size; p += b.capacity()) {
            int n = (int) Math.min(b.capacity(), size - p);
            readFully(b, p, n);
            for (int i = 0; i < n; i++) {
                if (b.get(i) != 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
