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
        if (there(pos, line, off, len)) {
            int have = (int) Math.min(len, size - pos);
            if (have == len) {
                return 0;                                      // in the file: killed before the trim
            }
            append(line, off + have, len - have);              // the rest of a torn write
            return len - have;
        }
        boolean misplaced = pos >= 0 && pos != size;
        m.putLong(at + 16, size); // first: a recovery killed after the write finds the line there
        append(line, off, len);
        return misplaced ? -len : len;
    }

    /** Whether {@link #place} finds the line at {@code pos}, whole or as a torn prefix ending the file (it appends no new line). */
    public boolean there(long pos, byte[] line, int off, int len) throws IOException {
        long size = size();
        if (pos < 0 || pos >= size) {
            return false;
        }
        int have = (int) Math.min(len, size - pos);
        byte[] at = read(pos, have);
        return at != null && Arrays.equals(at, 0, have, line, off, off + have) && (have == len || pos + have == size);
    }

    /**
     * Before the first recovered line: writes the part of {@code head} (a JUL {@code XMLFormatter}'s, which
     * its handler writes before a file's first record) the file lacks: all of it into an empty file (the
     * log's first, a file recreated or beside it) or one that ends with the formatter's {@code tail} (closed by
     * a rotation the kill stopped before its rename: what follows is a new file's, as plain JUL's next run
     * appending to it writes a head first); the rest when the file ends inside it at {@code at}, the
     * offset the writer recorded for it (a kill before all its bytes reached the file); else nothing.
     *
     * @return bytes appended
     */
    public int completeHead(byte[] head, long at, byte[] tail) throws IOException {
        long size = size();
        byte[] end = tail.length == 0 || size < tail.length ? null : read(size - tail.length, tail.length);
        if (size == 0 || end != null && Arrays.equals(end, tail)) {
            append(head, 0, head.length);
            return head.length;
        }
        if (at < 0 || size < at || size >= at + head.length) {
            return 0;
        }
        int have = (int) (size - at);
        byte[] there = read(at, have);
        if (there == null || !Arrays.equals(there, 0, have, head, 0, have)) {
            return 0; // not the head the writer began there: the file is not as it left it
        }
        append(head, have, head.length - have);
        return head.length - have;
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
