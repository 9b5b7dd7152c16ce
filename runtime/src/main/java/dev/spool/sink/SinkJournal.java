package dev.spool.sink;

import dev.spool.internal.ZeroFill;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal of a {@link ByteSink} writing an event file (issue 33): the sink's buffers are
 * regions of one {@code MAP_SHARED} mapping of a file beside the output ({@link JournalLayout}),
 * so what a producer copied into its buffer belongs to the kernel once the copy is done and
 * survives a SIGKILL of the process (not a power loss or a kernel crash: nothing is forced to
 * disk). The writer records which region use it writes where before each write, zeroes a region
 * after writing it and marks it empty; the next open of the output replays what the journal still
 * holds, after the last write that reached the file, exactly once ({@code JournalRecovery} in the
 * events package).
 *
 * <p><b>Threads.</b> {@link #stamp} runs on the producer that installs a buffer (before it opens
 * the buffer: its release publishes the stamp to the writer); {@link #beginWrite},
 * {@link #written} and {@link #bufferWritten} on the writer only; {@link #newBuffer} on the sink's
 * constructor and the writer. A failure inside the journal (an I/O error, a fault of the mapping)
 * never fails a write: it is recorded and the journal stops ({@link #disabled}); buffers then
 * hold events in memory as without a journal.
 *
 * <pre>{@code
 * SinkJournal j = SinkJournal.create(JournalLayout.journalOf(file), key, settings); // at open, after recovery
 * ByteSink sink = ByteSink.forChannel(channel, start, name, settings, j);
 * }</pre>
 */
@Internal
public final class SinkJournal {
    private static final ByteBuffer ZEROS = ZeroFill.ZEROS;

    final Path path;
    private final MappedByteBuffer map;
    final int regions;
    final int regionBytes;
    private final int headerBytes;
    private final ConcurrentLinkedQueue<Integer> freeRegions = new ConcurrentLinkedQueue<>();
    private final AtomicLong uses = new AtomicLong();
    /** A buffer of the sink had to be allocated outside the journal (recorded once). */
    volatile boolean unjournaledReported;
    /** The journal stopped (closed, deleted or failed); every method is then a no-op. */
    volatile boolean disabled;
    /** Writer only: the bytes the file holds just before its end, after the last completed write. */
    private byte[] lastTail = new byte[0];
    private byte[] pendingTail = new byte[0];
    /** Set by the opener: what the recovery at open replayed from a killed predecessor's journal. */
    volatile long recoveredEvents;
    volatile long recoveredBytes;
    ByteSink sink;

    private SinkJournal(Path path, MappedByteBuffer map, int regions, int regionBytes) {
        this.path = path;
        this.map = map;
        this.regions = regions;
        this.regionBytes = regionBytes;
        this.headerBytes = JournalLayout.headerBytes(regions);
        for (int i = 0; i < regions; i++) {
            freeRegions.offer(i);
        }
    }

    /**
     * Creates the journal {@code path} (nothing may be at the name: recover an old one first) for a sink with
     * {@code settings}, its blocks allocated by writing zeros (a full disk fails here, as an
     * {@link IOException}, never later as a fault of the mapping), and maps it.
     *
     * @param fileKey the output's identity ({@code BasicFileAttributes.fileKey()}), or "" when unknown
     */
    public static SinkJournal create(Path path, String fileKey, SinkSettings settings) throws IOException {
        int regions = settings.buffers() + JournalLayout.SPARE_REGIONS;
        int regionBytes = settings.bufferBytes();
        long size = JournalLayout.headerBytes(regions) + (long) regions * regionBytes;
        FileChannel ch;
        try {
            // CREATE_NEW (O_EXCL): never through a symlink or over anything already at the name
            ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            throw new IOException("journal " + path + " not created (" + e + "); events wait in memory until written,"
                    + " as without a journal", e);
        }
        MappedByteBuffer map;
        try (ch) {
            ZeroFill.allocate(ch, size); // every block allocated now: a full disk fails here, never as a SIGBUS
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(path);      // ours: created above
            } catch (IOException ignored) {
                // reported with the cause below
            }
            throw new IOException("journal " + path + " not created (" + e + "); events wait in memory until written,"
                    + " as without a journal", e);
        }
        map.order(ByteOrder.LITTLE_ENDIAN);
        map.put(0, JournalLayout.MAGIC);
        map.putInt(JournalLayout.VERSION_OFFSET, JournalLayout.VERSION);
        map.putInt(JournalLayout.REGION_COUNT_OFFSET, regions);
        map.putInt(JournalLayout.REGION_BYTES_OFFSET, regionBytes);
        byte[] key = fileKey.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(key.length, JournalLayout.KEY_MAX);
        map.put(JournalLayout.KEY_OFFSET, key, 0, n);
        map.putInt(JournalLayout.KEY_LENGTH_OFFSET, n);
        return new SinkJournal(path, map, regions, regionBytes);
    }

    /** A buffer backed by a free region of {@code capacity} bytes, or null (none free, another size, stopped). */
    SinkBuffer newBuffer(int capacity) {
        if (disabled || capacity != regionBytes) {
            return null;
        }
        Integer r = freeRegions.poll();
        if (r == null) {
            return null;
        }
        ByteBuffer slice = map.slice(headerBytes + r * regionBytes, regionBytes);
        return new SinkBuffer(slice, r);
    }

    /** A region whose buffer left the sink (replaced by one of another size) is free again; it was zeroed. */
    void returnRegion(SinkBuffer buf) {
        if (buf.region >= 0 && !disabled && useOf(buf.region) == 0) {
            freeRegions.offer(buf.region);
        }
    }

    /** Installer, before it opens {@code buf}: a new use of its region, in installation order. */
    void stamp(SinkBuffer buf) {
        if (buf.region < 0 || disabled) {
            return;
        }
        long seq = uses.incrementAndGet();
        buf.journalSeq = seq;
        try {
            map.putLong(JournalLayout.USE_TABLE_OFFSET + 8 * buf.region, seq);
        } catch (Throwable t) {
            fail(t);
        }
    }

    /**
     * Writer, before each attempt of a write of {@code sources} ({@code len} bytes) at {@code pos}:
     * records it as pending, the use {@code seq} of a region, or 0 for bytes held by no region.
     */
    void beginWrite(long seq, long pos, long len, ByteBuffer[] sources) {
        if (disabled) {
            return;
        }
        try {
            pendingTail = tailOf(sources);
            map.putLong(JournalLayout.PENDING_KIND_OFFSET, JournalLayout.NONE);
            map.putLong(JournalLayout.PENDING_SEQ_OFFSET, seq);
            map.putLong(JournalLayout.PENDING_POS_OFFSET, pos);
            map.putLong(JournalLayout.PENDING_LEN_OFFSET, len);
            map.put(JournalLayout.TAIL_OFFSET, lastTail);
            map.putInt(JournalLayout.TAIL_LENGTH_OFFSET, lastTail.length);
            map.putLong(JournalLayout.PENDING_KIND_OFFSET, seq > 0 ? JournalLayout.BUFFER : JournalLayout.DIRECT);
        } catch (Throwable t) {
            fail(t);
        }
    }

    /** Writer: the write begun last reached the file. */
    void written() {
        byte[] c = concat(lastTail, pendingTail);
        lastTail = c.length <= JournalLayout.TAIL_MAX ? c
                : java.util.Arrays.copyOfRange(c, c.length - JournalLayout.TAIL_MAX, c.length);
    }

    /**
     * Writer, after writing {@code buf} ({@code limit} bytes used): a whole buffer's region is
     * zeroed and marked empty; a buffer a producer may still write into is marked retired (never
     * replayed). The pending record still names the write, so a kill before this is no duplicate.
     */
    void bufferWritten(SinkBuffer buf, int limit, boolean whole) {
        if (buf.region < 0 || disabled) {
            return;
        }
        try {
            int at = JournalLayout.USE_TABLE_OFFSET + 8 * buf.region;
            if (!whole) {
                map.putLong(at, JournalLayout.RETIRED);
                return;
            }
            for (int off = 0; off < limit; off += ZEROS.capacity()) {
                buf.data.put(off, ZEROS, 0, Math.min(ZEROS.capacity(), limit - off));
            }
            map.putLong(at, 0);
        } catch (Throwable t) {
            fail(t);
        }
    }

    /** Writer, when the sink ended with everything written (or given up to the recovery folder): removes the file. */
    void delete() {
        disabled = true;
        try {
            Files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            if (sink != null) {
                sink.recordError("journal " + path + " not removed: " + e);
            }
        }
    }

    long useOf(int region) {
        return map.getLong(JournalLayout.USE_TABLE_OFFSET + 8 * region);
    }

    /** Records what the open's recovery replayed (shown on the sink's metrics). */
    public void recovered(long events, long bytes) {
        recoveredEvents = events;
        recoveredBytes = bytes;
    }

    private void fail(Throwable t) {
        disabled = true;
        if (sink != null) {
            sink.recordError("journal " + path + " stopped (events wait in memory until written, as without a journal): " + t);
        }
    }

    private static byte[] tailOf(ByteBuffer[] sources) {
        byte[] t = new byte[JournalLayout.TAIL_MAX];
        int n = 0;
        for (int i = sources.length - 1; i >= 0 && n < t.length; i--) {
            ByteBuffer s = sources[i];
            for (int p = s.limit() - 1; p >= s.position() && n < t.length; p--) {
                t[t.length - 1 - n++] = s.get(p);
            }
        }
        return n == t.length ? t : java.util.Arrays.copyOfRange(t, t.length - n, t.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
