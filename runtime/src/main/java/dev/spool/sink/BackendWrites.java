package dev.spool.sink;

import dev.spool.internal.jfr.SpoolJfr;
import dev.spool.internal.recovery.RecoveryFolder;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link SinkWriter}'s bytes reach the back end of its {@link ByteSink}: each write with
 * retry and backoff until it succeeds (once the sink is closing, {@link #CLOSE_ATTEMPTS}; a direct
 * write's abandoned request, its current attempt), the {@code MaxBytesPerSecond} throttle, the
 * failing-write state producers read ({@link #stalled}), the bytes the writer gives up while
 * closing (kept for the recovery folder, saved when it ends), and the back end's flush and settle.
 *
 * <p><b>Threads.</b> Writer only: every method runs in the writer's steps, on whichever thread runs
 * its turn, or after the writer ended under {@link ByteSink#throughLock} (the write-through path
 * of a closed sink). The plain fields are the writer's own state, ordered across turns by the
 * pool (see the package documentation); {@link #stalled}, {@link #stalledSince} and
 * {@link #lastWriteError} are volatile, read by producers to stop waiting on a failing writer and
 * to say why. Blocking: a write parks for its backoff (10 ms doubling to one second) and for the
 * throttle. A write failing with an {@code Exception} or {@code InternalError} is recorded and
 * retried, not thrown; the position of the sources and of the back end is restored first.
 */
final class BackendWrites {
    /** Attempts per write once the sink is closing (before that: retried until it succeeds). */
    static final int CLOSE_ATTEMPTS = 5;
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ByteSink sink;
    private final SinkWriter writer;
    /** A write is failing and being retried (e.g. a full disk), since {@link #stalledSince}. */
    volatile boolean stalled;
    volatile long stalledSince;
    /** The last write failure (without the time), for the messages of failed producers. */
    volatile String lastWriteError;
    /** The journal region use the next {@link #write} writes (0: bytes held by no region); set by the writer. */
    long journalSeq;
    /** Written since the back end's last flush (the writer flushes when idle). */
    boolean dirty;
    private long throttleNext;
    /** Bytes given up while closing (the target cannot take them); saved to the recovery folder at the end. */
    private final List<RecoveryFolder.Item> givenUp = new ArrayList<>();

    BackendWrites(ByteSink sink, SinkWriter writer) {
        this.sink = sink;
        this.writer = writer;
    }

    /** A write after close on the caller's thread (through-lock held): a few attempts, no retry for ever. */
    boolean writeThrough(ByteBuffer[] sources, long bytes) {
        return write(sources, bytes, 1, null);
    }

    /**
     * Writes with retry and backoff; false when the bytes were given up: while closing after
     * {@link #CLOSE_ATTEMPTS}, or when the waiter of {@code req} abandoned it.
     */
    boolean write(ByteBuffer[] sources, long bytes, long events, WriteRequest req) {
        int[] positions = new int[sources.length];
        for (int i = 0; i < sources.length; i++) {
            positions[i] = sources[i].position();
        }
        long start = sink.backend.position();
        long backoff = TimeUnit.MILLISECONDS.toNanos(10);
        int attempts = 0;
        while (true) {
            throttle(bytes);
            try {
                Object jfr = SpoolJfr.beginSinkWrite();
                SinkJournal journal = sink.journal;
                if (journal != null) {
                    journal.beginWrite(journalSeq, sink.backend.startedPosition(), bytes, sources);
                }
                sink.backend.write(sources);
                if (journal != null) {
                    journal.written();
                }
                dirty = true;
                stalled = false;
                sink.written.add(events, bytes, System.nanoTime());
                SpoolJfr.sinkWritten(jfr, sink.name, events, bytes);
                return true;
            } catch (Exception | InternalError e) {
                attempts++;
                lastWriteError = e.toString();
                sink.recordError("write " + sink.name + " at " + offset(start) + ": " + e);
                if (!stalled) {
                    stalledSince = System.nanoTime();
                    stalled = true;
                }
                for (int i = 0; i < sources.length; i++) {
                    sources[i].position(positions[i]);
                }
                try {
                    sink.backend.rewind(start);
                    if (start == DeferredStartBackend.UNKNOWN) {
                        start = sink.backend.position(); // the start, if this attempt found it
                    }
                } catch (Exception re) {
                    sink.recordError("rewind " + sink.name + ": " + re);
                }
                if (req != null && req.abandoned) {
                    return false;
                }
                if (sink.closed && attempts >= CLOSE_ATTEMPTS) {
                    if (writer.runningHere()) {
                        keepForRecovery(sources, start, bytes);
                    }
                    return false;
                }
                LockSupport.parkNanos(backoff);
                backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
            }
        }
    }

    /** A position in words: {@link DeferredStartBackend#UNKNOWN} is the end of a file's data not yet found. */
    private static String offset(long position) {
        return position == DeferredStartBackend.UNKNOWN ? "the end of the existing data (not found yet)"
                : "offset " + position;
    }

    /** Copies bytes that are given up, to be saved in the recovery folder when the writer ends. */
    private void keepForRecovery(ByteBuffer[] sources, long start, long bytes) {
        try {
            ByteBuffer copy = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, bytes));
            for (ByteBuffer b : sources) {
                ByteBuffer d = b.duplicate();
                if (d.remaining() > copy.remaining()) d.limit(d.position() + copy.remaining());
                copy.put(d);
            }
            copy.flip();
            givenUp.add(new RecoveryFolder.Item(Path.of(sink.name),
                    bytes + " bytes that belong at " + offset(start) + " (after the file header/data already there) of", copy));
        } catch (OutOfMemoryError | RuntimeException e) {
            sink.recordError("lost " + bytes + " bytes of " + sink.name + " at " + offset(start) + ": " + e);
        }
    }

    /** The writer is ending (through-lock held): saves the bytes given up while closing to the recovery folder. */
    void saveGivenUp() {
        if (!givenUp.isEmpty()) {
            RecoveryFolder.saveAll(givenUp, "unwritten chunk(s) of " + sink.name);
            givenUp.clear();
        }
    }

    private void throttle(long bytes) {
        long rate = sink.maxBytesPerSecond;
        if (rate <= 0) {
            throttleNext = 0;
            return;
        }
        long now = System.nanoTime();
        if (throttleNext == 0 || throttleNext < now) {
            throttleNext = now;
        }
        long wait = throttleNext - now;
        while (wait > 0 && sink.maxBytesPerSecond > 0) {
            LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(100)));
            wait = throttleNext - System.nanoTime();
        }
        throttleNext += (long) (bytes * 1e9 / rate);
    }

    void flushBackend() {
        try {
            sink.backend.flush();
            dirty = false;
        } catch (Exception e) {
            sink.recordError("flush " + sink.name + ": " + e);
        }
    }

    /** The output complete as it is now and still writable (through-lock held); false on failure. */
    boolean settle() {
        try {
            sink.backend.settle();
            dirty = false;
            return true;
        } catch (Exception | InternalError e) {
            sink.recordError("flush " + sink.name + ": " + e);
            return false;
        }
    }
}
