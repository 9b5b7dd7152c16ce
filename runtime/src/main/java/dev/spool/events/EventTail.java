package dev.spool.events;

import dev.spool.internal.Internal;
import static dev.spool.events.RecordDescriptor.HEADER_LENGTH;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Follows an event file while its writer appends to it: each {@link #poll} returns the records
 * completed since the last one, in the order {@link EventReader} returns them, each with its
 * <em>ordinal</em> (0-based index among the file's good records: ordinal {@code n} is the record
 * {@code spool cat --from n} prints first). It reads only committed data: a frame is taken when
 * all its bytes are in the file and its CRC32C matches; a frame being written (short, zero or
 * not yet matching its CRC) is waited for, never reported, unless it stays bad for
 * {@link #SETTLE_NANOS} while a valid frame follows it (then it is damage: reported and
 * skipped, exactly as {@link EventReader} skips it). In {@linkplain #open final} mode (a file no
 * one writes any more) damage is skipped at once and a torn tail is reported.
 *
 * <p>Frames are read, checked and resynchronised by {@link Frame}, split records joined by
 * {@link PartJoiner}: the same code as {@link EventReader}'s.
 *
 * <p>Resuming: every record carries {@link Tailed#resume()}, a {@link Position} after it from
 * which a new tail continues with the same ordinals, or {@code null} when a split record of
 * another thread is open there (no clean point). Not thread-safe; the file channel stays open
 * until {@link #close()} (closing a channel of a file can drop this JVM's lock on it).
 *
 * <pre>{@code
 * try (EventTail t = EventTail.open(path, EventTail.Position.START, false, problem -> log(problem))) {
 *     for (EventTail.Tailed r : t.poll(1000)) ship(r.ordinal(), r.value());
 * }
 * }</pre>
 */
@Internal
public final class EventTail implements AutoCloseable {
    /** How long a bad frame must stay bad, with a valid frame after it, before a following tail skips it. */
    public static final long SETTLE_NANOS = 1_000_000_000L;

    /** A clean point: the byte offset of a frame start and the ordinal of the next record. */
    public static final class Position {
        /** The start of a file: the first frame, ordinal 0. */
        public static final Position START = new Position(RecordDescriptor.FILE_HEADER_LENGTH, 0);
        private final long offset;
        private final long ordinal;

        public Position(long offset, long ordinal) {
            if (offset < RecordDescriptor.FILE_HEADER_LENGTH || ordinal < 0) {
                throw new IllegalArgumentException("no such position: offset " + offset + ", ordinal " + ordinal);
            }
            this.offset = offset;
            this.ordinal = ordinal;
        }

        public long offset() { return offset; }
        public long ordinal() { return ordinal; }

        @Override
        public String toString() {
            return "offset " + offset + ", ordinal " + ordinal;
        }
    }

    /** One record as tailed. */
    public static final class Tailed {
        private final long ordinal;
        private final EventRecord record;
        private final Position resume;
        private final long end;
        private final long lastFrameAt;
        private final int lastFrameCrc;

        Tailed(long ordinal, EventRecord record, Position resume, long end, long lastFrameAt, int lastFrameCrc) {
            this.ordinal = ordinal;
            this.record = record;
            this.resume = resume;
            this.end = end;
            this.lastFrameAt = lastFrameAt;
            this.lastFrameCrc = lastFrameCrc;
        }

        public long ordinal() { return ordinal; }
        public EventRecord record() { return record; }
        /** The offset just after the frame that completed this record. */
        public long end() { return end; }
        /** Where a tail resumes right after this record, or null when no clean point is there. */
        public Position resume() { return resume; }
        /** The offset of the frame that completed this record (it ends at {@link #end()}). */
        public long lastFrameAt() { return lastFrameAt; }
        /** That frame's stored CRC32C: with {@link #lastFrameAt()}, what {@link #frameHeaderAt} must find there again. */
        public int lastFrameCrc() { return lastFrameCrc; }
    }

    private final Path file;
    private final FileChannel ch;
    /** Reads outside the window: the file header, frame headers asked for, zero padding. */
    private final TailFile in;
    private final RecordCountAhead countAhead;
    private boolean finalMode;
    private final Consumer<ReadProblem> problems;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final PartJoiner joiner = new PartJoiner();
    /**
     * Read-ahead over one poll's frames, reset at each poll: a file's bytes can change between polls
     * (zeros a memory-mapped writer fills; a write given up at close and its offset written again).
     */
    private final FileWindow window;
    private long pos;
    private long ordinal;
    private long badAt = -1;
    private long badSince;
    private boolean headerOk;
    /** The offset and stored CRC32C of the frame being passed to the joiner (the one completing a record). */
    private long frameAt;
    private int frameCrc;

    private EventTail(Path file, FileChannel ch, Position from, boolean finalMode, Consumer<ReadProblem> problems) {
        this.file = file;
        this.ch = ch;
        this.in = new TailFile(file, ch);
        this.countAhead = new RecordCountAhead(in);
        this.window = new FileWindow(ch, 0);
        this.pos = from.offset();
        this.ordinal = from.ordinal();
        this.finalMode = finalMode;
        this.problems = problems;
    }

    /**
     * Opens a tail at {@code from}. The file header is checked by the first {@link #poll}.
     *
     * @param finalMode true for a file no one writes any more: damage is skipped without waiting
     * @param problems receives every damaged place skipped (never a frame still being written)
     */
    public static EventTail open(Path file, Position from, boolean finalMode, Consumer<ReadProblem> problems)
            throws IOException {
        return new EventTail(file, FileChannel.open(file, StandardOpenOption.READ), from, finalMode, problems);
    }

    public Path file() { return file; }

    /** The offset of the next frame to read. */
    public long offset() { return pos; }

    /** The ordinal the next record will get. */
    public long nextOrdinal() { return ordinal; }

    /**
     * From now on the file is final: no writer will complete what is bad or cut at its end, so
     * damage is skipped at once and a torn tail is reported and passed. Only once no writer can
     * append any more (closed): a writer that has only flushed may still be writing the frame cut
     * by the end, which would then be skipped and the records after it numbered wrong.
     */
    public void finish() {
        finalMode = true;
    }

    /**
     * Continues from {@code p} (a {@link Tailed#resume()} of this file, or {@link Position#START}):
     * the next record gets {@code p.ordinal()}. Open split records are forgotten.
     */
    public void seek(Position p) {
        pos = p.offset();
        ordinal = p.ordinal();
        joiner.clear();
        badAt = -1;
    }

    /**
     * The 32-byte header of the file's first frame when it is complete and valid (it names the
     * file's content: timestamp, thread, CRC32C of the payload), else null.
     */
    public byte[] firstFrameHeader() throws IOException {
        return frameHeaderAt(RecordDescriptor.FILE_HEADER_LENGTH);
    }

    /**
     * The 32-byte header of the frame at {@code at} when a complete, valid frame starts there
     * (plausible header, CRC32C matching), else null. Bytes 0-4 are its length, 4-8 its stored CRC32C.
     */
    public byte[] frameHeaderAt(long at) throws IOException {
        long size = ch.size();
        if (at < RecordDescriptor.FILE_HEADER_LENGTH || size < at + HEADER_LENGTH) {
            return null;
        }
        in.readFully(header, at, HEADER_LENGTH);
        int length = header.getInt(RecordDescriptor.LENGTH_OFFSET);
        if (!RecordDescriptor.plausibleHeader(header, 0, size - at) || Frame.read(ch, at, length, crc) == null) {
            return null;
        }
        byte[] out = new byte[HEADER_LENGTH];
        header.get(0, out);
        return out;
    }

    /**
     * The offset of the file's first complete, valid frame (the first frame, or the first after
     * damage at the start), or -1 when the file has none (yet). Reads from the first frame on
     * until one is found: meant for opening a file, not for every poll.
     */
    public long firstValidFrameAt() throws IOException {
        long size = ch.size();
        long at = RecordDescriptor.FILE_HEADER_LENGTH;
        if (size < at + HEADER_LENGTH) {
            return -1;
        }
        return Frame.resync(ch, crc, at, size, null);
    }

    /** The file's current size. */
    public long size() throws IOException {
        return ch.size();
    }

    /**
     * How many records the file holds up to its last whole frame, counted as ordinals: this tail's
     * next ordinal plus the records that the whole frames after its position complete (an unsplit
     * frame, or the last part of a split record). Cheap: it walks frame headers only, in 64 KiB
     * reads, without CRC check or decoding, and continues where its last call stopped. An estimate
     * ahead of {@link #poll}: it stops at the first implausible header (damage, or a frame still
     * being appended) and may count a frame that a later poll skips as damage; it starts over from
     * the tail's position whenever the tail has caught up with it.
     */
    public long recordsInFileEstimate() throws IOException {
        return countAhead.estimate(pos, ordinal);
    }

    /** True when every byte up to the file's current end has been read (in final mode: or skipped). */
    public boolean atEnd() throws IOException {
        return pos >= ch.size() || (finalMode && pos >= in.dataEnd(pos, header));
    }

    /** Records completed since the last poll, at most {@code max}; empty when nothing new is committed. */
    public List<Tailed> poll(int max) throws IOException {
        List<Tailed> out = new ArrayList<>();
        long size = ch.size();
        if (size < RecordDescriptor.FILE_HEADER_LENGTH) {
            return out;
        }
        if (!headerOk) {
            ByteBuffer h = ByteBuffer.allocate(RecordDescriptor.FILE_HEADER_LENGTH);
            in.readFully(h, 0, RecordDescriptor.FILE_HEADER_LENGTH);
            if (!RecordDescriptor.isFileHeader(h)) {
                throw new IOException(file + ": not a Spool event file (no SPOOLEVT version 1 header)");
            }
            headerOk = true;
        }
        // A frame this poll's window does not show whole and valid is read again from the file
        // before anything is decided about it (waited for, reported or skipped): a window is a
        // copy, and the writer may have completed the frame since.
        window.reset(size);
        long recheckedAt = -1;
        while (out.size() < max && pos < size) {
            long remaining = size - pos;
            if (remaining < HEADER_LENGTH) {
                endOfData(remaining, size);
                break;
            }
            window.readFully(header, pos, HEADER_LENGTH);
            int length = header.getInt(RecordDescriptor.LENGTH_OFFSET);
            if (RecordDescriptor.plausibleHeader(header, 0, remaining)) {
                ByteBuffer whole = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
                window.readFully(whole, pos, length);
                Frame f = Frame.decode(whole, pos, crc);
                if (f != null) {
                    frameAt = pos;
                    frameCrc = header.getInt(RecordDescriptor.CRC_OFFSET);
                    pos += length;
                    badAt = -1;
                    joiner.accept(f, joined(out));
                    continue;
                }
            }
            if (recheckedAt != pos) {
                recheckedAt = pos;
                window.drop();
                continue;
            }
            if (length == 0 && finalMode && in.zeroToEnd(pos, size)) {
                break; // zero padding of a crashed memory-mapped writer: the data ends here
            }
            if (length > remaining && RecordDescriptor.plausibleHeader(header, 0, Long.MAX_VALUE)) {
                endOfData(remaining, size); // a frame still being appended
                break;
            }
            if (!skipDamage(size)) {
                break;
            }
        }
        return out;
    }

    /** In final mode a frame cut by the end of the file is reported and the rest skipped. */
    private void endOfData(long remaining, long size) {
        if (finalMode) {
            problem(pos, ReadProblem.Kind.TRUNCATED, remaining + " bytes at the end of the file, not a whole frame");
            pos = size;
        }
    }

    /** The bad frame at {@code pos}: skip it when it is damage (see the class comment); true when skipped. */
    private boolean skipDamage(long size) throws IOException {
        if (!finalMode) {
            long now = System.nanoTime();
            if (badAt != pos) {
                badAt = pos;
                badSince = now;
                return false;
            }
            if (now - badSince < SETTLE_NANOS) {
                return false;
            }
        }
        long next = Frame.resync(ch, crc, pos + 1, size, null);
        if (next < 0) {
            if (!finalMode) {
                badSince = System.nanoTime(); // look again after another settle time, not at every poll
                return false;
            }
            next = size;
        }
        problem(pos, ReadProblem.Kind.CORRUPT, "bad frame (implausible header or CRC32C mismatch), "
                + (next - pos) + " bytes skipped");
        pos = next;
        badAt = -1;
        return true;
    }

    /** Where joined records go: decoded, numbered, with a resume point where no split record is open. */
    private PartJoiner.Out joined(List<Tailed> out) {
        return new PartJoiner.Out() {
            @Override
            public void record(Frame f, ByteBuffer payload, int parts) {
                EventRecord r;
                try {
                    r = new EventRecord(f.offset, f.timestamp, f.threadId, parts, EventCodec.decode(payload));
                } catch (EventFormatException e) {
                    problem(f.offset, ReadProblem.Kind.UNDECODABLE, e.getMessage());
                    return;
                }
                long n = ordinal++;
                out.add(new Tailed(n, r, joiner.isEmpty() ? new Position(pos, ordinal) : null, pos, frameAt, frameCrc));
            }

            @Override
            public void problem(long offset, ReadProblem.Kind kind, String detail) {
                EventTail.this.problem(offset, kind, detail);
            }
        };
    }

    private void problem(long at, ReadProblem.Kind kind, String detail) {
        problems.accept(new ReadProblem(at, kind, file + ": " + detail, ordinal));
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
