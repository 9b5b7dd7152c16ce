package dev.spool.events;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Reads an event file back: iterates its records in file order (parts of a split record joined
 * into one), skipping what is damaged. Damage never throws: a torn or corrupt frame, an
 * incomplete split record or an undecodable payload becomes a {@link ReadProblem} (offset, kind,
 * good records before it), and reading resumes at the next valid frame. The only exceptions are
 * {@link IOException} from {@link #open} and {@link UncheckedIOException} from iteration, both for
 * failures of the file system itself. Each call of {@link #iterator()} reads from the start; the
 * problems of the last iteration are in {@link #problems()}. Not thread-safe.
 *
 * <pre>{@code
 * try (EventReader r = EventReader.open(path)) {
 *     for (EventRecord e : r) System.out.println(e.value());
 *     if (!r.sound()) System.err.println(r.problems().get(0));
 * }
 * }</pre>
 */
public final class EventReader implements Iterable<EventRecord>, AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final List<ReadProblem> problems = new ArrayList<>();
    private long records;
    private long paddingFrom = -1;

    private EventReader(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Opens an event file for reading; iterate it for its records.
     * @param file the event file
     * @return the reader; close it
     * @throws IOException when the file cannot be opened
     */
    public static EventReader open(Path file) throws IOException {
        return new EventReader(file, FileChannel.open(file, StandardOpenOption.READ));
    }

    /** @return the file being read */
    public Path file() { return file; }

    /** @return the problems of the last (or current) iteration, in the order found */
    public List<ReadProblem> problems() { return Collections.unmodifiableList(problems); }

    /** @return true when the last iteration found no problem (zero padding at the end is not one) */
    public boolean sound() { return problems.isEmpty(); }

    /** @return the good records returned by the last iteration */
    public long records() { return records; }

    /** @return where zero padding at the end of the file starts, or -1 */
    public long paddingFrom() { return paddingFrom; }

    /**
     * Reads the whole file once (for {@code verify}).
     * @return the number of good records
     */
    public long scan() {
        long n = 0;
        for (Iterator<EventRecord> it = iterator(); it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    @Override
    public Iterator<EventRecord> iterator() {
        problems.clear();
        records = 0;
        paddingFrom = -1;
        return new Records();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void problem(long offset, ReadProblem.Kind kind, String detail) {
        problems.add(new ReadProblem(offset, kind, detail, records));
    }

    private final class Records implements Iterator<EventRecord>, PartJoiner.Out {
        private final ArrayDeque<EventRecord> ready = new ArrayDeque<>();
        private final PartJoiner joiner = new PartJoiner();
        private FrameScanner scanner;
        private boolean done;

        @Override
        public boolean hasNext() {
            try {
                while (ready.isEmpty() && !done) {
                    step();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": " + e.getMessage(), e);
            }
            return !ready.isEmpty();
        }

        @Override
        public EventRecord next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            records++;
            return ready.poll();
        }

        private void step() throws IOException {
            if (scanner == null) {
                ByteBuffer h = ByteBuffer.allocate(RecordDescriptor.FILE_HEADER_LENGTH);
                while (h.hasRemaining() && channel.read(h, h.position()) > 0) {
                    // read the header
                }
                h.flip();
                if (!RecordDescriptor.isFileHeader(h)) {
                    problem(0, ReadProblem.Kind.BAD_FILE_HEADER, h.limit() < RecordDescriptor.FILE_HEADER_LENGTH
                            ? "file header truncated (" + h.limit() + " of 16 bytes)"
                            : "not a Spool event file (no SPOOLEVT version 1 header)");
                    done = true;
                    return;
                }
                scanner = new FrameScanner(channel, RecordDescriptor.FILE_HEADER_LENGTH, EventReader.this::problem);
            }
            Frame f = scanner.next();
            if (f == null) {
                joiner.endOfData(this);
                paddingFrom = scanner.paddingFrom();
                done = true;
                return;
            }
            joiner.accept(f, this);
        }

        @Override
        public void record(Frame f, ByteBuffer payload, int parts) {
            try {
                ready.add(new EventRecord(f.offset, f.timestamp, f.threadId, parts, EventCodec.decode(payload)));
            } catch (EventFormatException e) {
                problem(f.offset, ReadProblem.Kind.UNDECODABLE, e.getMessage());
            }
        }

        @Override
        public void problem(long offset, ReadProblem.Kind kind, String detail) {
            EventReader.this.problem(offset, kind, detail);
        }
    }
}
