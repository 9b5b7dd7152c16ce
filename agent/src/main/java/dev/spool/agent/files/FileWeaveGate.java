package dev.spool.agent.files;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whether Jackson writes may be buffered yet: only once the JDK's file operations are woven (or
 * that ended in a refusal, which is reported), since before it a buffered file could be read,
 * moved or deleted by the host behind the buffer's back. The weaving starts with the first Jackson
 * class or the first routed log stream and takes tens of milliseconds; the first write (or that
 * log's open: a read of the log right after logging must be woven) that finds it unfinished waits
 * for it, at most {@link #MAX_WAIT_MILLIS}, and past that bound writes are not buffered (the host's
 * own write runs) until it ends, with no further wait. Thread-safe.
 * <pre>{@code
 * if (!gate.open()) return false; // the host's own write runs
 * }</pre>
 */
public final class FileWeaveGate {

    /** The longest a host thread waits for the weaving, once. */
    public static final long MAX_WAIT_MILLIS = 5_000;

    private final CountDownLatch woven;
    private final long maxWaitMillis;
    private volatile boolean open;
    private volatile boolean gaveUp;

    /** @param needed false: open from the start (nothing to weave) */
    public FileWeaveGate(boolean needed) {
        this(needed, MAX_WAIT_MILLIS);
    }

    FileWeaveGate(boolean needed, long maxWaitMillis) {
        this.woven = new CountDownLatch(needed ? 1 : 0);
        this.open = !needed;
        this.maxWaitMillis = maxWaitMillis;
    }

    /** The weaving ended (woven, or refused and reported). */
    public void done() {
        open = true;
        woven.countDown();
    }

    /** Whether writes may be buffered now; the first caller before the weaving ended waits for it (bounded). */
    public boolean open() {
        if (open) {
            return true;
        }
        if (gaveUp) {
            return false;
        }
        try {
            if (woven.await(maxWaitMillis, TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        gaveUp = true;
        return false;
    }
}
