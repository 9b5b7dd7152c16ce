package dev.spool.agent.internal;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JUL handlers and Logback appenders whose files were ever routed, with the folders of their
 * latest file ({@link LogFolders}), so that a host's look at a folder finds a log's writer even
 * between two of its streams: during a roll on Spool's thread, the old stream is closed and the new
 * one not yet open, and only the appender (its lock, its queue) knows what is still to come.
 *
 * <p>Thread-safe, lock-free; owners are held weakly and by identity (their {@code equals} and
 * {@code hashCode}, host code, are never called). Example:
 * <pre>{@code
 * owners.routed(appender, stream.folders());
 * for (Object o : owners.concerning(Path.of("/logs"))) control.drainCapturedLogsOf(o);
 * }</pre>
 */
final class LogOwners {

    private final Map<Owner, LogFolders> folders = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> gone = new ReferenceQueue<>();

    /** {@code owner}'s new stream was routed; {@code of} its folders. */
    void routed(Object owner, LogFolders of) {
        expunge();
        folders.put(new Owner(owner, gone), of);
    }

    /**
     * Whether any handler or appender was ever routed (and may still be alive): read per host file
     * operation, so that a look between two of a log's streams still reaches {@link #concerning}.
     */
    boolean any() {
        return !folders.isEmpty();
    }

    /** The owners whose folders hold {@code target} (absolute, normalised). */
    List<Object> concerning(Path target) {
        List<Object> hits = new ArrayList<>(1);
        folders.forEach((k, f) -> {
            Object o = k.get();
            if (o != null && f.concerns(target)) {
                hits.add(o);
            }
        });
        return hits;
    }

    private void expunge() {
        for (Object r; (r = gone.poll()) != null; ) {
            folders.remove(r);
        }
    }

    /** An owner, weakly, by identity. */
    private static final class Owner extends WeakReference<Object> {
        private final int hash;

        Owner(Object owner, ReferenceQueue<Object> queue) {
            super(owner, queue);
            this.hash = System.identityHashCode(owner);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            Object mine = get();
            return o instanceof Owner other && mine != null && mine == other.get();
        }
    }
}
