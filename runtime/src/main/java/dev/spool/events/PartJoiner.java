package dev.spool.events;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins the parts of split records (frames flagged {@link RecordDescriptor#FLAG_PART}, numbered
 * per writing thread, the last flagged {@link RecordDescriptor#FLAG_LAST}) into whole payloads, in
 * the order their last parts come; an unsplit frame passes through. A split record that is
 * interrupted (by another record of its thread, or a missing part) is reported and dropped. Shared
 * by {@link EventReader} and {@link EventTail} so both return the same records. Not thread-safe.
 */
final class PartJoiner {
    /** Receives joined records and problems. */
    interface Out {
        /** A whole record: its first frame (offset, timestamp, thread), the joined payload, the number of parts. */
        void record(Frame first, ByteBuffer payload, int parts);

        void problem(long offset, ReadProblem.Kind kind, String detail);
    }

    private static final class Partial {
        final Frame first;
        final List<ByteBuffer> parts = new ArrayList<>();
        long bytes;

        Partial(Frame first) {
            this.first = first;
        }
    }

    private final Map<Long, Partial> partials = new HashMap<>();

    /** True when no split record is open (a clean point to resume from). */
    boolean isEmpty() {
        return partials.isEmpty();
    }

    /** Forgets every open split record without reporting it. */
    void clear() {
        partials.clear();
    }

    /** Reports every open split record as ending with the data, and forgets them. */
    void endOfData(Out out) {
        for (Partial p : partials.values()) {
            out.problem(p.first.offset, ReadProblem.Kind.INCOMPLETE,
                    "split record of thread " + p.first.threadId + " ends after part " + (p.parts.size() - 1));
        }
        partials.clear();
    }

    void accept(Frame f, Out out) {
        if ((f.flags & RecordDescriptor.FLAG_PART) == 0) {
            abandon(f.threadId, "is followed by an unsplit record at offset " + f.offset, out);
            out.record(f, f.payload, 1);
            return;
        }
        Partial p = partials.get(f.threadId);
        if (f.partIndex == 0) {
            abandon(f.threadId, "is followed by a new split record at offset " + f.offset, out);
            p = new Partial(f);
            partials.put(f.threadId, p);
        } else if (p == null || p.parts.size() != f.partIndex) {
            abandon(f.threadId, "misses part " + (p == null ? 0 : p.parts.size()), out);
            out.problem(f.offset, ReadProblem.Kind.INCOMPLETE, "part " + f.partIndex + " of thread " + f.threadId
                    + " without its earlier parts");
            return;
        }
        p.parts.add(f.payload);
        p.bytes += f.payload.remaining();
        if ((f.flags & RecordDescriptor.FLAG_LAST) != 0) {
            partials.remove(f.threadId);
            if (p.bytes > Integer.MAX_VALUE - 64) {
                out.problem(p.first.offset, ReadProblem.Kind.UNDECODABLE, "joined record larger than 2 GiB");
                return;
            }
            ByteBuffer joined = ByteBuffer.allocate((int) p.bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (ByteBuffer b : p.parts) {
                joined.put(b);
            }
            out.record(p.first, joined.flip(), p.parts.size());
        }
    }

    private void abandon(long threadId, String why, Out out) {
        Partial p = partials.remove(threadId);
        if (p != null) {
            out.problem(p.first.offset, ReadProblem.Kind.INCOMPLETE, "split record of thread " + threadId
                    + " with " + p.parts.size() + " parts " + why);
        }
    }
}
