package dev.spool.buffer;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A buffer's sweeps of stale temp files ({@link StaleTemps}): each folder the buffer holds a file
 * of is swept once per buffer, by the flush pass that comes next (before it writes anything) or
 * the next timed tick of the flusher, so the first flush of a folder in a process finds the
 * leftovers of killed processes gone. The listing runs there, never on a caller's put.
 *
 * <p><b>Guarantees.</b> A folder is queued at most once ({@link #note}); at most
 * {@link #MAX_FOLDERS} folders are remembered, the ones beyond are not swept automatically
 * ({@code spool recover} still does), so the memory is bounded. Nothing here throws: a sweep's
 * errors are dropped (the files stay, as before; {@code spool recover} reports them). Thread-safe:
 * {@link #note} from any thread (one set lookup), {@link #sweepPending} from any (each queued folder
 * is taken by one caller).
 * <pre>{@code
 * sweeps.note(file.getParent());   // a new entry in that folder
 * sweeps.sweepPending();           // on the flushing thread, before the pass writes
 * sweeps.removed();                // the Buffer bean's StaleTempFilesRemoved
 * }</pre>
 */
final class FolderSweeps {
    static final int MAX_FOLDERS = 65_536;

    private final Set<Path> seen = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Path> pending = new ConcurrentLinkedQueue<>();
    private final AtomicLong removed = new AtomicLong();

    /** A folder the buffer now holds a file of: queued for a sweep if never seen. */
    void note(Path folder) {
        if (folder != null && seen.size() < MAX_FOLDERS && seen.add(folder)) pending.add(folder);
    }

    /** Sweeps every queued folder now, on this thread. */
    void sweepPending() {
        for (Path f; (f = pending.poll()) != null; ) {
            try {
                removed.addAndGet(StaleTemps.sweep(f).removed().size());
            } catch (RuntimeException | LinkageError e) {
                // a sweep never harms the flush: the files stay
            }
        }
    }

    /** Stale temp files removed since the buffer started. */
    long removed() {
        return removed.get();
    }
}
