package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import java.nio.MappedByteBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Formats a journal's frames into their lines for {@link JulJournalRecovery}, in order, on a few
 * threads of its own: formatting is most of a recovery's time (a full 64 MiB ring of 409,200
 * records: ~1.5 s of 2.2 s on one thread, cold JVM), and every record formats alone. Batches of
 * {@link #BATCH} frames are formatted on up to {@link #MAX_THREADS} daemon threads
 * ({@code spool-jul-recovery-<n>}, ended by {@link #close}); at most {@code 2 × threads} batches
 * are formatted ahead of the one being placed, so memory stays a few MB whatever the ring's size.
 * Each thread has its own {@link Lines} (e.g. {@link JulRecoveryLines}: its {@link CompiledSimpleFormatter},
 * {@link JulMessageFormats} and {@link JulJournalCodec.Decoder}: none is shared, the last two are not
 * thread-safe), which writes a batch's lines into one array ({@link JulRecoveryLines.Batch}). A
 * small journal (one batch) is formatted on the calling thread, no thread started.
 *
 * <p>One caller: {@link #next} hands out the batches in the frames' order; a frame whose record
 * cannot be formatted is an unreadable line (whole by its CRC, yet not formattable: named by the
 * recovery, never guessed at). Reads the mapping only ({@code m}'s frames are not written while
 * their batch is formatted: the caller writes a frame's offset after taking its batch).
 */
final class JulRecoveryFormatter implements AutoCloseable {
    static final int BATCH = 2048;
    static final int MAX_THREADS = 4;
    private static final AtomicInteger THREADS_MADE = new AtomicInteger();

    private final MappedByteBuffer m;
    private final int threads = Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors());
    private final ArrayDeque<Future<JulRecoveryLines.Batch>> queued = new ArrayDeque<>();
    /** The calling thread's; the pool's threads each make their own ({@link #perThread}: only they touch it). */
    private final Formatting callers;
    private final ThreadLocal<Formatting> perThread;
    /** Null until more than one batch is known (a small journal is formatted on the calling thread). */
    private ExecutorService pool;
    private int ahead;
    /** The frames in the order their lines go to the file, once the scan is done ({@link #start}). */
    private int[] frames;
    private int batches;
    private int submitted;
    /** Batches handed out on the calling thread (no pool). */
    private int taken;

    /**
     * One thread's maker of a journal's lines: {@link JulRecoveryLines} ({@code SimpleFormatter}),
     * {@link JulXmlRecoveryLines} ({@code XMLFormatter}). Not thread-safe.
     */
    interface Lines {
        /**
         * Appends the line of the frame at {@code at} of {@code m} to {@code b} as its line {@code i}; a record
         * that cannot be formatted is an empty line marked unreadable.
         */
        void append(ByteBuffer m, int at, JulRecoveryLines.Batch b, int i);
    }

    /** What one thread formats with, and the size of its last batch (the next one's first guess). */
    private static final class Formatting {
        final Lines lines;
        int lastSize = BATCH * 128;

        Formatting(Lines lines) {
            this.lines = lines;
        }
    }

    /**
     * @param lines a new maker of lines per call (one per formatting thread); its first is made here, on
     *              the caller's thread (a header it cannot use throws {@code IllegalArgumentException} here)
     */
    JulRecoveryFormatter(MappedByteBuffer m, Supplier<Lines> lines) {
        this.m = m;
        this.callers = new Formatting(lines.get());
        this.perThread = ThreadLocal.withInitial(() -> new Formatting(lines.get()));
    }

    /**
     * The scan, while the frames found so far are in the order their lines go to the file: batch
     * {@code from / BATCH} (frames {@code at[from, from + BATCH)}) is whole and a later one exists,
     * so it may be formatted now, on the pool's threads, while the scan goes on (its first batches
     * are the ones a cold JVM formats slowest). At most {@code 2 × threads} are formatted ahead.
     */
    void scanned(int[] at, int from) {
        if (threads <= 1 || submitted >= 2 * threads) {
            return;
        }
        startPool();
        int[] batch = Arrays.copyOfRange(at, from, from + BATCH);
        submitted++;
        queued.add(pool.submit(() -> format(batch, 0, BATCH, perThread.get())));
    }

    /** The scan found a frame out of that order: the batches formatted during the scan are not the file's. */
    void discard() {
        for (Future<JulRecoveryLines.Batch> f : queued) {
            f.cancel(false);
        }
        queued.clear();
        submitted = 0;
    }

    /** The scan is done: {@code frames} (mapping offsets) in the order their lines go to the file. */
    void start(int[] frames) {
        this.frames = frames;
        this.batches = (frames.length + BATCH - 1) / BATCH;
        if (batches > 1 && threads > 1) {
            startPool();
        }
    }

    private void startPool() {
        if (pool == null) {
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "spool-jul-recovery-" + THREADS_MADE.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            ahead = 2 * threads;
        }
    }

    /** The number of batches. */
    int batches() {
        return batches;
    }

    /** The lines of the next batch (frames {@code [k × BATCH, …)}), an unreadable line per unformattable record. */
    JulRecoveryLines.Batch next() throws InterruptedException {
        if (pool == null) {
            int from = taken++ * BATCH;
            return format(frames, from, Math.min(frames.length, from + BATCH), callers);
        }
        while (submitted < batches && queued.size() < ahead) {
            int from = submitted++ * BATCH;
            queued.add(pool.submit(() -> format(frames, from, Math.min(frames.length, from + BATCH), perThread.get())));
        }
        try {
            return queued.remove().get();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof Error err) {
                throw err;                      // out of memory, say: as the single-threaded recovery would
            }
            throw new IllegalStateException("formatting journaled records failed", c);
        }
    }

    private JulRecoveryLines.Batch format(int[] frames, int from, int to, Formatting f) {
        JulRecoveryLines.Batch lines = new JulRecoveryLines.Batch(to - from, f.lastSize + (f.lastSize >> 3));
        for (int i = from; i < to; i++) {
            int at = frames[i];
            if (m.getLong(at + 24) == MappedLogJournal.BYTES) { // the host's own bytes: written back as they are
                int n = m.getInt(at);
                lines.ensure(n);
                m.get(at + MappedLogJournal.FRAME_HEADER, lines.bytes, lines.size, n);
                lines.size += n;
                lines.ends[i - from] = lines.size;
            } else {
                f.lines.append(m, at, lines, i - from);
            }
        }
        f.lastSize = lines.size;
        return lines;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
