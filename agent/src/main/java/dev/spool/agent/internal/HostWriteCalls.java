package dev.spool.agent.internal;

import dev.spool.agent.journal.HostWrites;

/**
 * A routed stream's calls into the journal of the bytes the host writes itself (issue 33,
 * {@link HostWrites}), made so that they never fail the host's write: a fault in the journal is
 * counted and named under {@code journal-bytes:<name>}, and the bytes go without it.
 *
 * <p>Called on the writer's thread (the handler's or appender's lock held), as
 * {@link RoutedStream#write(byte[], int, int)}; holds no state of its own beyond the stream's name.
 */
final class HostWriteCalls {
    private final AgentControl control;
    private final String name;

    HostWriteCalls(AgentControl control, String name) {
        this.control = control;
        this.name = name;
    }

    /** {@link HostWrites#before}, never failing the host's write: -1 on a fault (counted). */
    long before(HostWrites h, byte[] b, int off, int len, long position) {
        try {
            return h.before(b, off, len, position);
        } catch (RuntimeException | LinkageError e) {
            control.error("journal-bytes:" + name, "journaling bytes of " + name + " failed (" + e + "): written without the journal");
            return -1;
        }
    }

    /** {@link HostWrites#after} for a frame {@link #before} reserved (none: nothing), never failing the host's write. */
    void after(HostWrites h, long frame, long end) {
        if (h == null || frame < 0) {
            return;
        }
        try {
            h.after(frame, end);
        } catch (RuntimeException | LinkageError e) {
            control.error("journal-bytes:" + name, "settling journaled bytes of " + name + " failed (" + e + ")");
        }
    }
}
