package dev.spool.events;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opening an event file for writing: a new file gets the header, an existing one is appended to. */
final class EventFiles {
    private EventFiles() {
    }

    /** An open, locked event file: where writing starts is known ({@link #start} ≥ 0) or to be found. */
    static final class Opened {
        final FileChannel channel;
        /** Where writing starts, or -1: an existing file whose {@link EventFiles#endOfData} is not looked up yet. */
        final long start;

        Opened(FileChannel channel, long start) {
            this.channel = channel;
            this.start = start;
        }

        /** Where writing starts: {@link #start}, or the end of the existing data (zero padding after it cut). */
        long findStart() throws IOException {
            if (start >= 0) {
                return start;
            }
            long size = channel.size();
            long end = endOfData(channel, size);
            if (end < size) {
                channel.truncate(end);
            }
            return end;
        }
    }

    /**
     * Opens {@code file} for appending events and locks it. A new or empty file gets the file
     * header; an existing event file is appended to at its {@linkplain #endOfData end of data},
     * which {@link Opened#findStart} finds (zero padding after it, a crashed memory-mapped writer's,
     * is cut then): the caller decides on which thread. A file that is not an event file is
     * refused, unchanged.
     */
    static Opened openForAppend(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            lockExclusively(file, ch);
            long size = ch.size();
            if (size == 0) {
                ByteBuffer h = RecordDescriptor.fileHeader();
                while (h.hasRemaining()) {
                    ch.write(h, h.position());
                }
                return new Opened(ch, RecordDescriptor.FILE_HEADER_LENGTH);
            }
            ByteBuffer h = ByteBuffer.allocate(RecordDescriptor.FILE_HEADER_LENGTH);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // read the header
            }
            h.flip();
            if (!RecordDescriptor.isFileHeader(h)) {
                throw new IOException("not a Spool event file (no SPOOLEVT version 1 header at offset 0); left unchanged");
            }
            return new Opened(ch, -1);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Where appending continues: the start of the zero padding a crashed memory-mapped writer left
     * at the end, or {@code size} when there is none. Padding runs to the end of the file, so a
     * file whose last byte is not zero has none: one byte read settles the common case, where the
     * walk of every frame took ~0.1 s per 50 MB on the thread of the first emit. A file ending in
     * zero is walked frame by frame to find where the padding starts (a frame may end in zeros).
     */
    static long endOfData(FileChannel ch, long size) throws IOException {
        ByteBuffer last = ByteBuffer.allocate(1);
        Frame.readFully(ch, last, size - 1, 1);
        if (last.get(0) != 0) {
            return size;
        }
        FrameScanner scanner = new FrameScanner(ch, RecordDescriptor.FILE_HEADER_LENGTH, (o, k, d) -> { });
        while (scanner.next() != null) {
            // walk to the end of the data
        }
        return scanner.paddingFrom() >= 0 ? scanner.paddingFrom() : size;
    }

    /** One writer per event file: a second one (this JVM or another) would overwrite the first's frames. */
    private static void lockExclusively(Path file, FileChannel ch) throws IOException {
        try {
            if (ch.tryLock() == null) {
                throw new IOException("is being written by another process; left unchanged");
            }
        } catch (OverlappingFileLockException e) {
            throw new IOException("is already open for writing in this JVM; left unchanged");
        }
    }
}
