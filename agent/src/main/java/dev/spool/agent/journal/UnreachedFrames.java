package dev.spool.agent.journal;

import java.util.ArrayDeque;

/**
 * A log journal's frames whose bytes went to the sink but may not be in the file yet (issue 33), in
 * file order, each with the file offset just after its bytes: {@link #settle} marks done those the file
 * holds by now; {@link #abandon} the rest when their stream closed without them (the sink failed: they are
 * no longer that file's). Not thread-safe: used by one journal writer under its own lock or thread.
 */
public final class UnreachedFrames {
    private final ArrayDeque<long[]> frames = new ArrayDeque<>();

    /** {@code frame}'s bytes went to the sink; they end at file offset {@code end}. */
    public void add(long frame, long end) {
        frames.add(new long[] {frame, end});
    }

    public boolean isEmpty() {
        return frames.isEmpty();
    }

    /** Marks done every frame whose bytes are below {@code reached} (the file's), records it in the header, trims. */
    public void settle(MappedLogJournal journal, long reached) {
        for (long[] u; (u = frames.peek()) != null && u[1] <= reached; ) {
            frames.poll();
            journal.done(u[0]);
        }
        if (reached > 0) {
            journal.reached(reached);
        }
        journal.trim();
    }

    /** Marks every frame left done (its stream closed without its bytes in the file) and trims: how many there were. */
    public int abandon(MappedLogJournal journal) {
        int n = frames.size();
        for (long[] u; (u = frames.poll()) != null; ) {
            journal.done(u[0]);
        }
        if (n > 0) {
            journal.trim();
        }
        return n;
    }
}
