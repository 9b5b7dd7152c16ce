package dev.spool.agent.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * A log file as a journal's recovery appends to it ({@link MappedLogJournal}, issue 33): appended
 * lines are gathered and written 1 MiB at a time (a read first writes what is gathered); its size is
 * kept here, not asked per line. {@link #place} puts one recovered line where it belongs. Not thread-safe.
 */
public final class RecoveryAppends {
    private final FileChannel ch;
    private final ByteBuffer pending = ByteBuffer.allocate(1 << 20);
    private long written;

    public RecoveryAppends(FileChannel ch) throws IOException {
        this.ch = ch;
        this.written = ch.size();
    }

    /**
     * Puts one line into the file: skipped when there already; the rest of a torn line; else at the end.
     *
     * @return bytes appended (0: there already), negated when the line was not at its recorded offset
     */
    public long place(MappedByteBuffer m, int at, byte[] line, int off, int len) throws IOException {
        long size = size();
        long pos = m.getLong(at + 16);
        if (pos >= 0 && pos < size) {
            int have = (int) Math.min(len, size - pos);
            byte[] there = read(pos, have);
            if (there != null && Arrays.equals(there, 0, have, line, off, off + have)) {
                if (have == len) {
                    return 0;                                  // in the file: killed before the trim
                }
                if (pos + have == size) {
                    append(line, off + have, len - have);      // the rest of a torn write
                    return len - have;
                }
            }
        }
        boolean misplaced = pos >= 0 && pos != size;
        m.putLong(at + 16, size); // first: a recovery killed after the write finds the line there
        append(line, off, len);
        return misplaced ? -len : len;
    }

    public long size() {
        return written + pending.position();
    }

    public void append(byte[] line, int from, int n) throws IOException {
        if (pending.remaining() < n) {
            flush();
        }
        if (pending.remaining() < n) {
            write(ByteBuffer.wrap(line, from, n));
            return;
        }
        pending.put(line, from, n);
    }

    /** {@code n} bytes at {@code pos}, or null when the file is shorter. */
    public byte[] read(long pos, int n) throws IOException {
        flush();
        return readAt(ch, pos, n);
    }

    public void flush() throws IOException {
        pending.flip();
        write(pending);
        pending.clear();
    }

    private void write(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            written += ch.write(b, written);
        }
    }

    /** {@code n} bytes of {@code ch} at {@code pos}, or null when the file is shorter. */
    public static byte[] readAt(FileChannel ch, long pos, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining() && ch.read(b, pos + b.position()) >= 0) {
            // read fully
        }
        return b.hasRemaining() ? null : b.array();
    }
}
