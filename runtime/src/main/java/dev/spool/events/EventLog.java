package dev.spool.events;

import dev.spool.sink.ByteSink;
import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

/**
 * A structured event log: {@link #emit(Object)} encodes one event on the caller's thread (see
 * {@link EventCodec}), frames it ({@link RecordDescriptor}) and hands it to a {@link ByteSink},
 * whose writer thread writes it. Thread-safe; per thread, events are written in emit order.
 * A payload of at least {@code directThreshold} bytes is written directly; one over
 * {@code recordMax} is written as numbered parts that {@link EventReader} joins again.
 *
 * <pre>{@code
 * try (EventLog log = EventLog.open(Path.of("run.spool"))) {
 *     log.emit(Map.of("step", 1, "mass", new double[] {1.5, 2.5}));
 * }
 * }</pre>
 * An existing event file is appended to (zero padding left by a crashed memory-mapped writer is
 * cut first); a file that is not an event file is refused.
 */
public final class EventLog implements AutoCloseable {
    /** Bounded wait of {@link #flush()}. */
    public static final long FLUSH_TIMEOUT_MILLIS = 30_000;
    private static final int INITIAL_SCRATCH = 64 << 10;

    private static final ThreadLocal<Producer> PRODUCER = ThreadLocal.withInitial(Producer::new);

    private final ByteSink sink;
    private final LongSupplier clock;
    private final LongSupplier threadId;

    private EventLog(ByteSink sink, LongSupplier clock, LongSupplier threadId) {
        this.sink = sink;
        this.clock = clock;
        this.threadId = threadId;
    }

    /**
     * Opens (creates or appends to) an event file with default settings.
     * @param file the event file
     * @return the open log; close it to write what is pending
     * @throws UncheckedIOException when the file cannot be opened or is not a Spool event file
     */
    public static EventLog open(Path file) {
        return open(file, SinkSettings.defaults());
    }

    /**
     * Opens (creates or appends to) an event file.
     *
     * @param file the event file
     * @param settings the sink's settings (buffer size, policy when full, back end)
     * @return the open log; close it to write what is pending
     * @throws UncheckedIOException when the file cannot be opened or is not a Spool event file
     */
    public static EventLog open(Path file, SinkSettings settings) {
        return open(file, settings, System::currentTimeMillis, () -> Thread.currentThread().getId());
    }

    /**
     * Replays the journal a killed writer left beside {@code file} into it ({@code spool recover
     * FILE}; every open does the same first), without opening a log: locks the file as a writer
     * would, so a live writer's journal is never touched.
     *
     * @param file the event file
     * @return what was done, one line (e.g. {@code 12 records (3456 bytes) replayed from ...})
     * @throws IOException when the file cannot be locked or read, is not an event file, or its
     *         journal is not its own (renamed {@code .orphan-<ms>}; the message says where)
     */
    public static String recover(Path file) throws IOException {
        Path journal = dev.spool.sink.JournalLayout.journalOf(file);
        boolean existed = java.nio.file.Files.exists(journal);
        EventFiles.Opened o = EventFiles.openForAppend(file);
        try (java.nio.channels.FileChannel ch = o.channel) {
            JournalRecovery.Result r = JournalRecovery.recover(file, ch, EventJournals.fileKey(file));
            if (r.problem() != null) {
                throw new IOException(r.problem());
            }
            return !existed ? file + ": no journal (nothing to replay)"
                    : file + ": " + r.frames() + " records (" + r.bytes() + " bytes) replayed from " + journal;
        }
    }

    /** For tests that pin the bytes: a fixed clock and thread id. */
    static EventLog open(Path file, SinkSettings settings, LongSupplier clockMillis, LongSupplier threadId) {
        Objects.requireNonNull(settings, "settings");
        try {
            EventFiles.Opened o = EventFiles.openForAppend(file);
            // the absolute path: the MBean's Path attribute and a name unique among open logs
            String name = file.toAbsolutePath().normalize().toString();
            EventJournals.Start j = EventJournals.start(file, o.channel, settings);
            // an existing file's end is found by the sink's writer thread, not the opening one
            ByteSink sink = ByteSink.forChannel(o.channel, o::findStart, name, settings, j.journal());
            j.report(sink);
            return new EventLog(sink, clockMillis, threadId);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Records one event. Never throws into the caller except {@link IllegalArgumentException}
     * for a map key that is not a string (the message names its path; nothing is written).
     * Other encoding failures are counted in {@link SinkMetrics#errors()}.
     * @param event a map, list, string, number, boolean or null (nested freely)
     */
    public void emit(Object event) {
        Producer p = producer();
        Scratch s = p.scratch;
        try {
            s.pos = RecordDescriptor.HEADER_LENGTH;
            p.encoder.resetDepth();
            p.encoder.value(event);
            write(p, s.pos - RecordDescriptor.HEADER_LENGTH);
        } catch (KeyPathException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            sink.countError("emit: event of " + (event == null ? "null" : event.getClass().getName())
                    + " not written: " + e);
        } finally {
            s.release();
            p.busy = false;
        }
    }

    /** This thread's encoding state, or a fresh one when an emit is already running on this thread
     *  (an event whose getter emits another event while Jackson converts it). */
    private static Producer producer() {
        Producer p = PRODUCER.get();
        if (p.busy) {
            p = new Producer();
        }
        p.busy = true;
        return p;
    }

    /**
     * Records one already-encoded event ({@link EventCodec#encode}); the bytes are copied before
     * this returns. Allocates nothing for a payload under the direct threshold.
     * @param encoded the event's encoding
     */
    public void emitEncoded(byte[] encoded) {
        Producer p = producer();
        Scratch s = p.scratch;
        try {
            s.pos = RecordDescriptor.HEADER_LENGTH;
            s.putBytes(encoded);
            write(p, encoded.length);
        } catch (RuntimeException e) {
            sink.countError("emitEncoded: not written: " + e);
        } finally {
            s.release();
            p.busy = false;
        }
    }

    private void write(Producer p, int payloadLength) {
        long ts = clock.getAsLong();
        long tid = threadId.getAsLong();
        if (payloadLength > sink.recordMax()) {
            writeParts(p, payloadLength, ts, tid);
            return;
        }
        ByteBuffer b = p.scratch.buf;
        RecordDescriptor.putHeader(b, 0, payloadLength, RecordDescriptor.TYPE_EVENT, (byte) 0, 0, ts, tid);
        int crc = RecordDescriptor.crc(p.crc, b, 0, b, RecordDescriptor.HEADER_LENGTH, payloadLength);
        b.putInt(RecordDescriptor.CRC_OFFSET, crc);
        b.limit(RecordDescriptor.HEADER_LENGTH + payloadLength).position(0);
        if (payloadLength >= sink.directThreshold()) {
            sink.appendDirect(b);
        } else {
            sink.append(b);
        }
    }

    private void writeParts(Producer p, int payloadLength, long ts, long tid) {
        sink.countSplitRecord();
        int max = sink.recordMax();
        ByteBuffer payload = p.scratch.buf;
        ByteBuffer header = p.partHeader;
        int index = 0;
        for (int off = 0; off < payloadLength; off += max, index++) {
            int len = Math.min(max, payloadLength - off);
            boolean last = off + len >= payloadLength;
            byte flags = (byte) (RecordDescriptor.FLAG_PART | (last ? RecordDescriptor.FLAG_LAST : 0));
            header.clear();
            RecordDescriptor.putHeader(header, 0, len, RecordDescriptor.TYPE_EVENT, flags, index, ts, tid);
            int at = RecordDescriptor.HEADER_LENGTH + off;
            header.putInt(RecordDescriptor.CRC_OFFSET, RecordDescriptor.crc(p.crc, header, 0, payload, at, len));
            payload.limit(at + len).position(at);
            if (len >= sink.directThreshold()) {
                sink.appendDirect(header, payload);
            } else {
                sink.append(header, payload);
            }
            payload.clear();
        }
    }

    /** Returns when everything emitted before is written to the file (at most {@link #FLUSH_TIMEOUT_MILLIS}). */
    public void flush() {
        sink.flush(FLUSH_TIMEOUT_MILLIS);
    }

    /** Writes everything emitted before to the file and closes it. Idempotent. */
    @Override
    public void close() {
        sink.close();
    }

    /** @return the live counters of this log's sink (also its {@code dev.spool:type=Sink} MBean) */
    public SinkMetrics metrics() {
        return sink.metrics();
    }

    /** Per-thread encoding state, reused across events and logs. */
    private static final class Producer {
        boolean busy;
        final Scratch scratch = new Scratch(INITIAL_SCRATCH);
        final EventEncoder encoder = new EventEncoder(scratch);
        final CRC32C crc = new CRC32C();
        final ByteBuffer partHeader = ByteBuffer.allocateDirect(RecordDescriptor.HEADER_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN);
    }
}
