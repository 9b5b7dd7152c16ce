package dev.spool.agent.journal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The frames of a killed writer's log journal ({@link MappedLogJournal}) that recovery replays: every
 * whole frame not done from the trimmed offset on, in the order its line goes to the file. The
 * writer's lines first (recorded file offsets ascending), then the lines never written, in journal
 * order (per producer thread, its queue's order either way); sorted only when the journal's order is
 * not that already (stable: journal order among equal offsets). A frame is where its stored ring
 * offset is the one expected there and its CRC matches; a frame cut short, or space reserved and
 * never stored, is stepped over 8 bytes at a time; padding skips to the lap's end.
 *
 * <p>Not thread-safe: one recovery's walk over a mapping it alone uses. Example:
 * <pre>{@code
 * int[] frames = PendingFrames.walk(m, ring, m.getLong(MappedLogJournal.TRIMMED_OFFSET), null);
 * for (int f : frames) { replay(m, f); } // f: the frame's offset in the mapping
 * }</pre>
 */
public final class PendingFrames {

    /** Told about the frames while the walk finds them (a recovery that formats lines ahead, on other threads). */
    public interface Listener {
        /** Frames {@code at[0..n)} were found, in file order so far (called after each one while the order holds). */
        void found(int[] at, int n);

        /** The journal's order is not the file's after all: what was handed to {@link #found} will be sorted. */
        void unordered();
    }

    private PendingFrames() {
    }

    /**
     * The pending frames of the ring ({@code ring} bytes after the header of mapping {@code m}) from
     * {@code trimmed} on, as mapping offsets in file order; {@code listener} (may be null) follows the walk.
     */
    public static int[] walk(ByteBuffer m, int ring, long trimmed, Listener listener) {
        int[] at = new int[256];
        long[] keys = new long[256];
        int n = 0;
        boolean ordered = true;
        CRC32C crc = new CRC32C();
        for (long t = trimmed, end = trimmed + ring; t < end; ) {
            int len = wholeFrame(m, ring, t, crc);
            if (len < 0) {
                t = stepOver(m, ring, t);
                continue;
            }
            int f = MappedLogJournal.HEADER + (int) (t % ring);
            if (m.getLong(f + 24) != MappedLogJournal.DONE) {
                if (n == at.length) {
                    at = Arrays.copyOf(at, 2 * n);
                    keys = Arrays.copyOf(keys, 2 * n);
                }
                long pos = m.getLong(f + 16);
                keys[n] = pos < 0 ? Long.MAX_VALUE : pos;
                if (ordered && n > 0 && keys[n - 1] > keys[n]) {
                    ordered = false;
                    if (listener != null) {
                        listener.unordered();
                    }
                }
                at[n++] = f;
                if (ordered && listener != null) {
                    listener.found(at, n);
                }
            }
            t = after(t, len);
        }
        return ordered ? Arrays.copyOf(at, n) : sortedBy(at, keys, n);
    }

    /**
     * Recovery's scan ({@code m} the whole mapped file): the payload length of the whole frame at ring
     * offset {@code t} (its stored offset is {@code t}, it fits the lap, its CRC matches), or -1.
     */
    private static int wholeFrame(ByteBuffer m, int ring, long t, CRC32C crc) {
        int phys = (int) (t % ring);
        int f = MappedLogJournal.HEADER + phys;
        int len = ring - phys >= MappedLogJournal.FRAME_HEADER && m.getLong(f + 8) == t ? m.getInt(f) : -1;
        if (len < 0 || MappedLogJournal.FRAME_HEADER + (long) len > ring - phys) {
            return -1;
        }
        crc.reset();
        crc.update(m.slice(f + MappedLogJournal.FRAME_HEADER, len));
        return (int) crc.getValue() == m.getInt(f + 4) ? len : -1;
    }

    /** Recovery's scan: the ring offset after the whole frame of {@code len} payload bytes at {@code t}. */
    private static long after(long t, int len) {
        return t + ((MappedLogJournal.FRAME_HEADER + len + 7) & ~7);
    }

    /** Recovery's scan, no whole frame at {@code t}: past the padding to the lap's end, or 8 bytes on (a frame cut short). */
    private static long stepOver(ByteBuffer m, int ring, long t) {
        int phys = (int) (t % ring);
        return t + (m.getLong(MappedLogJournal.HEADER + phys) == ~t ? ring - phys : 8);
    }

    /** The first {@code n} of {@code at} ordered by {@code keys} (stably: journal order among equal keys). */
    private static int[] sortedBy(int[] at, long[] keys, int n) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, java.util.Comparator.comparingLong(i -> keys[i]));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = at[order[i]];
        }
        return out;
    }
}
