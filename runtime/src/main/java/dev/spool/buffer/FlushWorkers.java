package dev.spool.buffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs one flush pass over an array of entries on up to {@code threads} threads: the calling
 * thread plus {@code threads - 1} daemon helpers ({@code spool-buffer-flush-<n>}, started on first
 * use, idle ones end after a minute). Each thread takes the next index from one shared counter, so
 * every entry is handed to exactly one thread, once. With one thread nothing is started and the
 * pass runs on the caller alone. Blocking: {@link #run} returns when every entry has been handed
 * out and handled; each helper's part is bounded by the entries it took (an entry's write holds only
 * that entry's monitor). Thread-safe; used under the buffer's flush lock, so one pass at a time.
 * <pre>{@code
 * List<Outcome> done = workers.run(entries, e -> { synchronized (e) { return writer.write(e, fsync); } }, 4);
 * }</pre>
 */
final class FlushWorkers {
    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    private ThreadPoolExecutor pool;

    /** Non-CLEAN outcomes of {@code one} over every entry, in no particular order. */
    List<EntryWriter.Outcome> run(Entry[] entries, Function<Entry, EntryWriter.Outcome> one, int threads) {
        int helpers = Math.min(threads, Math.max(1, entries.length / 8)) - 1;
        AtomicInteger next = new AtomicInteger();
        if (helpers <= 0) return drain(entries, next, one);
        ExecutorService p = pool(helpers);
        List<Future<List<EntryWriter.Outcome>>> parts = new ArrayList<>(helpers);
        try {
            for (int i = 0; i < helpers; i++) parts.add(p.submit(() -> drain(entries, next, one)));
        } catch (RejectedExecutionException closed) {
            // shut down (the buffer is closed): whoever flushes now does it alone
        }
        List<EntryWriter.Outcome> out = drain(entries, next, one);
        boolean interrupted = false;
        for (Future<List<EntryWriter.Outcome>> f : parts) {
            for (;;) {
                try {
                    out.addAll(f.get());
                    break;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a flush helper failed", e.getCause());
                } catch (InterruptedException e) {
                    interrupted = true; // the helper's part is bounded: finish collecting, then restore the flag
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        return out;
    }

    private static List<EntryWriter.Outcome> drain(Entry[] entries, AtomicInteger next,
                                                   Function<Entry, EntryWriter.Outcome> one) {
        List<EntryWriter.Outcome> out = new ArrayList<>();
        for (int i; (i = next.getAndIncrement()) < entries.length; ) {
            EntryWriter.Outcome o = one.apply(entries[i]);
            if (o.result() != EntryWriter.Result.CLEAN) out.add(o);
        }
        return out;
    }

    private synchronized ExecutorService pool(int helpers) {
        if (pool == null) {
            pool = new ThreadPoolExecutor(helpers, helpers, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Helper(r, "spool-buffer-flush-" + THREAD_NUMBER.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            pool.allowCoreThreadTimeOut(true);
        } else if (pool.getMaximumPoolSize() != helpers) {
            if (helpers > pool.getMaximumPoolSize()) {
                pool.setMaximumPoolSize(helpers);
                pool.setCorePoolSize(helpers);
            } else {
                pool.setCorePoolSize(helpers);
                pool.setMaximumPoolSize(helpers);
            }
        }
        return pool;
    }

    /** Ends the helpers once their current work is done (the buffer is closed). */
    synchronized void shutdown() {
        if (pool != null) pool.shutdown();
    }

    static boolean isHelperThread() {
        return Thread.currentThread() instanceof Helper;
    }

    /** Whether the current thread is one of the buffer's flush threads (the flusher or a helper): its file I/O is Spool's own. */
    static boolean isFlushThread() {
        return Thread.currentThread() instanceof FlushThread;
    }

    /** A thread that writes the buffer's files (the host's file-operation hooks leave its I/O alone). */
    static class FlushThread extends Thread {
        FlushThread(Runnable r, String name) {
            super(r, name);
        }
    }

    private static final class Helper extends FlushThread {
        Helper(Runnable r, String name) {
            super(r, name);
        }
    }
}
