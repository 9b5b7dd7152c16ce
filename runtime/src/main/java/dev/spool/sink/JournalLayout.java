package dev.spool.sink;

import dev.spool.internal.Internal;
import java.nio.charset.StandardCharsets;

/**
 * The on-disk layout of a sink journal ({@link SinkJournal}), shared by the sink that writes it
 * and the event files' recovery that replays it. Little-endian.
 *
 * <pre>
 * Header (headerBytes(regions): whole 4 KiB pages):
 *   0  magic "SPOOLJNL"        8  version (int) = 1      12 region count (int)   16 region bytes (int)
 *   24 pending kind (long): NONE, BUFFER (a region's use), DIRECT (bytes not in a region), REPLAY (a recovery)
 *   32 pending seq (long): the region use being written (BUFFER), the use already in the file (REPLAY)
 *   40 pending pos (long): the file offset the write starts at     48 pending len (long)
 *   56 tail length (int)   64 tail: up to 16 bytes the file holds just before pending pos
 *   80 file key length (int)  84 file key (UTF-8, at most 300 bytes): the event file's identity
 *   512 region use table: one long per region: its use's seq (&gt; 0), 0 (empty) or RETIRED
 * Regions: region i at headerBytes + i * regionBytes, each one sink buffer's bytes.
 * </pre>
 * The writer stores the pending record with kind NONE first and the kind last, so a kill in the
 * middle leaves NONE: no write started after the previous one completed.
 */
@Internal
public final class JournalLayout {
    public static final byte[] MAGIC = "SPOOLJNL".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    public static final int VERSION_OFFSET = 8;
    public static final int REGION_COUNT_OFFSET = 12;
    public static final int REGION_BYTES_OFFSET = 16;
    public static final int PENDING_KIND_OFFSET = 24;
    public static final int PENDING_SEQ_OFFSET = 32;
    public static final int PENDING_POS_OFFSET = 40;
    public static final int PENDING_LEN_OFFSET = 48;
    public static final int TAIL_LENGTH_OFFSET = 56;
    public static final int TAIL_OFFSET = 64;
    public static final int TAIL_MAX = 16;
    public static final int KEY_LENGTH_OFFSET = 80;
    public static final int KEY_OFFSET = 84;
    public static final int KEY_MAX = 300;
    public static final int USE_TABLE_OFFSET = 512;
    public static final int PAGE = 4096;

    public static final long NONE = 0;
    public static final long BUFFER = 1;
    public static final long DIRECT = 2;
    public static final long REPLAY = 3;
    /** A region whose buffer was retired (a producer may still write into it): never replayed. */
    public static final long RETIRED = -1;

    /** Regions beyond the sink's buffers: a retired buffer's replacement still gets one. */
    static final int SPARE_REGIONS = 2;

    private JournalLayout() {
    }

    /** @return the header's size for {@code regions} regions: whole pages */
    public static int headerBytes(int regions) {
        int need = USE_TABLE_OFFSET + 8 * regions;
        return (need + PAGE - 1) / PAGE * PAGE;
    }

    /** @return the journal file beside {@code file}: its name plus {@code .journal} */
    public static java.nio.file.Path journalOf(java.nio.file.Path file) {
        return file.resolveSibling(file.getFileName() + ".journal");
    }
}
