package dev.spool.agent.journal;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * The mapped journal of one routed log (issue 33): a JUL {@code FileHandler} with {@code SimpleFormatter}
 * ({@code dev.spool.agent.jul.JulJournalCodec}, {@code <file>.spool-journal}, magic {@code SPOOLJUL}) or with
 * {@code XMLFormatter} ({@code dev.spool.agent.jul.JulXmlJournalCodec}, the same name, magic {@code SPOOLJXM}), or a
 * deferred Logback file appender ({@code dev.spool.agent.logback.LogbackJournalCodec},
 * {@code <file>.spool-logback-journal}, magic {@code SPOOLLBK}): what each captured record holds is stored on the caller's thread into a
 * {@code MAP_SHARED} ring beside the log file ({@code <file>.spool-journal}) before the record is
 * queued; once the store is done the record is the kernel's and survives a SIGKILL of the process
 * (not a power loss or a kernel crash: nothing is forced to disk). The drainer records the file
 * offset each record's line is written at ({@link #filePos}), marks a record {@link #done} once its
 * bytes reached the file, and trims the ring over done records ({@link #trim}); the next start of
 * routing for the file (or {@code spool recover FILE}) replays what is left (JUL's {@code JulJournalRecovery},
 * Logback's {@code LogbackJournalRecovery}).
 *
 * <pre>
 * Header (4096 bytes, little-endian): 0 magic "SPOOLJUL" or "SPOOLLBK", 8 version (int) 1, 12 ring bytes (int),
 *   16 trimmed (long): the ring offset below which every record is done, 24 owner pid (long),
 *   32 diverted (long): 1 once a recovery found the log file emptied since and writes beside it,
 *   40 reached (long): the file offset up to which the writer's lines are in the file, as last settled,
 *   48 head at (long, SPOOLJXM only): the file offset the formatter's head goes to before the file's first record
 *      (-1: the handler had written it before the journal; the head's text is in the format string),
 *   64 charset name (int length + UTF-8), 128 format string (JUL's; SPOOLJXM: "xml-instant" or "xml-local", a newline,
 *      the head; Logback's encoder pattern), int length + UTF-8, at most 3900 bytes
 * Ring at 4096: frames at 8-aligned offsets; a frame never wraps. Frame: 0 payload length (int),
 *   4 CRC32C of the payload (int), 8 its ring offset (long, a logical offset growing forever: a
 *   frame of an older lap never matches), 16 file position of its line (long, -1 until written),
 *   24 state (long: 0 queued, 1 done, 2 queued bytes: the payload is the line's bytes as the host's own
 *   encoding wrote them, replayed as they are), 32 payload. A long equal to ~offset at a frame's place:
 *   the rest of the lap is padding.
 * </pre>
 *
 * <p><b>Threads.</b> {@link #append} on any caller thread: a CAS reserves the frame, no lock, no
 * host code; {@link #filePos}, {@link #done} and {@link #trim} on the log's drainer (under the
 * queue's drain lock); {@link #done} also by a caller whose record was not queued. The ring offset
 * and the state are stored with release and read with acquire ({@link #LONGS}).
 * A failure inside the journal never fails a call: {@link #append} answers -1 and the record is
 * captured without the journal (as before issue 33), counted by the caller.
 */
public final class MappedLogJournal {
    public static final byte[] MAGIC = "SPOOLJUL".getBytes(StandardCharsets.US_ASCII);
    /** A JUL {@code XMLFormatter} handler's journal: the same layout, its format string the XML's kind and head. */
    public static final byte[] XML_MAGIC = "SPOOLJXM".getBytes(StandardCharsets.US_ASCII);
    /** A Logback appender's journal: the same layout, its format string the encoder's pattern. */
    public static final byte[] LOGBACK_MAGIC = "SPOOLLBK".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    public static final int HEADER = 4096;
    public static final int RING_BYTES_OFFSET = 12;
    public static final int TRIMMED_OFFSET = 16;
    public static final int PID_OFFSET = 24;
    /** Set by recovery only ({@link RecoveryTarget}); zero as created. */
    public static final int DIVERTED_OFFSET = 32;
    /** The drainer's last settled file offset ({@link #reached}); recovery's sign of the file the writer wrote. */
    public static final int REACHED_OFFSET = 40;
    /** Where an XML handler's head goes in the file ({@link #headAt}); recovery completes a head the kill left short. */
    public static final int HEAD_AT_OFFSET = 48;
    public static final int CHARSET_OFFSET = 64;
    public static final int FORMAT_OFFSET = 128;
    public static final int FORMAT_MAX = HEADER - FORMAT_OFFSET - 4;
    public static final int FRAME_HEADER = 32;
    public static final long QUEUED = 0;
    public static final long DONE = 1;
    /**
     * A frame whose payload is the bytes the host's own formatting or encoding wrote on the caller's
     * thread ({@link HostWrites}): recovery writes them as they are, no codec.
     */
    public static final long BYTES = 2;
    /** {@link #append}'s answer when the ring has no room now (the sink is behind): room comes as lines reach the file. */
    public static final long FULL = -2;
    /**
     * {@link #append}'s answer once the journal is {@linkplain #seal sealed} (put away while idle): no
     * record can go into it any more, and its owner makes a new journal for this one.
     */
    public static final long SEALED = -4;
    /** {@link #reserved} of a sealed journal: below every offset, so no reservation can follow. */
    private static final long SEALED_MARK = Long.MIN_VALUE;
    /** The journal's name beside its log file: no FileHandler pattern, lock file or Spool temp name looks like it. */
    public static final String SUFFIX = ".spool-journal";
    /** A Logback appender's journal's name beside its log file. */
    public static final String LOGBACK_SUFFIX = ".spool-logback-journal";
    /** The ring's size unless {@code dev.spool.jul.journalBytes} says otherwise (diagnostics, tests). */
    public static final int RING_BYTES = Integer.getInteger("dev.spool.jul.journalBytes", 4 << 20) & ~7;
    /** Aligned long access (release/acquire) into the mapping. */
    public static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The journals this process writes now (absolute paths): recovery never replays one of them. */
    private static final java.util.Set<Path> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public final Path path;
    public final Charset charset;
    private final MappedByteBuffer map;
    private final int ring;
    /** The ring offset after the last reserved frame (callers). */
    private final AtomicLong reserved = new AtomicLong();
    /** Every frame below it is done (written by the drainer, read by callers for room). */
    private volatile long trimmed;
    /** The journal stopped (a fault of the mapping, closed): every method is a no-op. */
    public volatile boolean disabled;

    private MappedLogJournal(Path path, Charset charset, MappedByteBuffer map, int ring) {
        this.path = path;
        this.charset = charset;
        this.map = map;
        this.ring = ring;
    }

    /** The journal of {@code logFile}: its name plus {@value #SUFFIX}. */
    public static Path journalOf(Path logFile) {
        return logFile.resolveSibling(logFile.getFileName() + SUFFIX);
    }

    /**
     * Creates the journal of {@code logFile} (nothing may be at the name: the start of routing
     * recovered an old one), its blocks allocated by writing zeros (a full disk fails here, never
     * later as a fault of the mapping), with the format string and charset recovery formats with.
     */
    public static MappedLogJournal create(Path logFile, String format, Charset charset) throws IOException {
        return create(journalOf(logFile), MAGIC, format, charset);
    }

    /** Creates the journal {@code path} with {@code magic} ({@link #MAGIC}, {@link #LOGBACK_MAGIC}); as {@link #create(Path, String, Charset)}. */
    public static MappedLogJournal create(Path path, byte[] magic, String format, Charset charset) throws IOException {
        return create(path, magic, format, charset, RING_BYTES);
    }

    /** {@link #create(Path, byte[], String, Charset)} with a ring of {@code ringBytes} (a multiple of 8; tests). */
    static MappedLogJournal create(Path path, byte[] magic, String format, Charset charset, int ringBytes) throws IOException {
        MappedByteBuffer map = JournalHeader.create(path, magic, format, charset, ringBytes);
        LIVE.add(path.toAbsolutePath());
        return new MappedLogJournal(path, charset, map, ringBytes);
    }

    /**
     * Recovery's check of a journal's header ({@code m}, the whole file of {@code size} bytes) against
     * {@code magic}: null when it is one, else why not (named in the result).
     */
    public static String headerProblem(ByteBuffer m, long size, byte[] magic) {
        return JournalHeader.problem(m, size, magic);
    }

    /** Whether the journal {@code m} begins with {@code magic} ({@link #MAGIC}, {@link #XML_MAGIC}, {@link #LOGBACK_MAGIC}). */
    public static boolean hasMagic(ByteBuffer m, byte[] magic) {
        return JournalHeader.hasMagic(m, magic);
    }

    /**
     * A journal recovery cannot use: renamed {@code <journal>.orphan-<millis>} so the next start does not
     * trip over it again, kept for an operator. The sentence for the result.
     */
    public static String orphan(Path journal, String why) {
        Path to = journal.resolveSibling(journal.getFileName() + ".orphan-" + System.currentTimeMillis());
        try {
            Files.move(journal, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return "journal " + journal + " not replayed: " + why + "; kept as " + to;
        } catch (IOException | RuntimeException e) {
            return "journal " + journal + " not replayed: " + why + "; it could not be renamed (" + e + ")";
        }
    }

    /** Whether {@code journal} is one this process writes now. */
    public static boolean live(Path journal) {
        return LIVE.contains(journal.toAbsolutePath());
    }

    /**
     * A caller: stores {@code payload} as a frame. Once this returns the record is the kernel's.
     *
     * @return the frame's ring offset; {@link #FULL} when the ring has no room now; -1 when the record
     *         can never be journaled here (larger than half the ring, or the journal stopped)
     */
    public long append(byte[] payload, int length) {
        return append(payload, 0, length, -1, QUEUED);
    }

    /**
     * A caller whose line the host's own formatting wrote (under its handler's lock, {@link HostWrites}):
     * stores {@code b[off, off+len)} as a {@link #BYTES} frame whose line starts at file offset {@code pos}.
     * Answers as {@link #append(byte[], int)}.
     */
    public long appendBytes(byte[] b, int off, int len, long pos) {
        return append(b, off, len, pos, BYTES);
    }

    private long append(byte[] payload, int off, int length, long pos, long state) {
        if (disabled) {
            return reserved.get() == SEALED_MARK ? SEALED : -1;
        }
        int frame = (FRAME_HEADER + length + 7) & ~7;
        if (frame > ring / 2) {
            return -1; // a frame over half the ring may never fit between the lap's end and the trim
        }
        long cur;
        long start;
        do {
            cur = reserved.get();
            if (cur == SEALED_MARK) {
                return SEALED;
            }
            int phys = (int) (cur % ring);
            start = phys + frame > ring ? cur + (ring - phys) : cur;
            if (start + frame - trimmed > ring) {
                return FULL;
            }
        } while (!reserved.compareAndSet(cur, start + frame));
        try {
            if (start != cur) {
                LONGS.setRelease(map, HEADER + (int) (cur % ring), ~cur); // the rest of that lap is padding
            }
            int at = HEADER + (int) (start % ring);
            CRC32C crc = new CRC32C();
            crc.update(payload, off, length);
            map.put(at + FRAME_HEADER, payload, off, length);
            map.putInt(at, length);
            map.putInt(at + 4, (int) crc.getValue());
            map.putLong(at + 16, pos);
            LONGS.setRelease(map, at + 24, state);
            LONGS.setRelease(map, at + 8, start); // last: the frame is whole
            return start;
        } catch (Throwable t) {
            disabled = true; // a fault of the mapping: this record and the later ones go without the journal
            return -1;
        }
    }

    /** The drainer, before writing the record's line: the file offset it starts at. */
    public void filePos(long frame, long pos) {
        try {
            map.putLong(HEADER + (int) (frame % ring) + 16, pos);
        } catch (Throwable t) {
            disabled = true;
        }
    }

    /** The record's line reached the file (or will never be written): it is not replayed. */
    public void done(long frame) {
        try {
            LONGS.setRelease(map, HEADER + (int) (frame % ring) + 24, DONE);
        } catch (Throwable t) {
            disabled = true;
        }
    }

    /** The drainer: moves the trimmed offset over every done frame (and padding) at its start. */
    public void trim() {
        long t = trimmed;
        long end = reserved.get();
        try {
            while (t < end) {
                int at = HEADER + (int) (t % ring);
                if (ring - t % ring >= FRAME_HEADER && (long) LONGS.getAcquire(map, at + 8) == t) {
                    if ((long) LONGS.getAcquire(map, at + 24) != DONE) {
                        break;
                    }
                    t += (FRAME_HEADER + map.getInt(at) + 7) & ~7;
                } else if ((long) LONGS.getAcquire(map, at) == ~t) {
                    t += ring - t % ring;
                } else {
                    break; // reserved, not yet stored
                }
            }
            if (t != trimmed) {
                map.putLong(TRIMMED_OFFSET, t);
                trimmed = t;
            }
        } catch (Throwable e) {
            disabled = true;
        }
    }

    /** The drainer: every line up to file offset {@code offset} is in the file. */
    public void reached(long offset) {
        try {
            map.putLong(REACHED_OFFSET, offset);
        } catch (Throwable t) {
            disabled = true;
        }
    }

    /** The drainer (an XML handler's journal): the head goes to file offset {@code offset}, -1: it is in the file. */
    public void headAt(long offset) {
        try {
            map.putLong(HEAD_AT_OFFSET, offset);
        } catch (Throwable t) {
            disabled = true;
        }
    }

    /** The ring offset below which every frame is done. */
    public long trimmed() {
        return trimmed;
    }

    /** Bytes of frames not trimmed yet (the Sink bean's {@code JournalPendingBytes}). */
    public long pendingBytes() {
        long r = reserved.get();
        return disabled || r == SEALED_MARK ? 0 : Math.max(0, r - trimmed);
    }

    /** Whether every reserved frame is trimmed (a sealed journal holds none). */
    public boolean empty() {
        long r = reserved.get();
        return r == SEALED_MARK || r == trimmed;
    }

    /**
     * Puts an idle journal away: when every reserved frame is trimmed (each record's line is in the
     * file), no caller can reserve one any more ({@link #SEALED}), atomically with their reservations:
     * a frame reserved first keeps the journal. True when sealed; the owner then {@linkplain #delete deletes}
     * the file, and a caller that meets {@link #SEALED} makes a new journal. The drainer's call.
     */
    public boolean seal() {
        long r = reserved.get();
        return r != SEALED_MARK && r == trimmed && !disabled && reserved.compareAndSet(r, SEALED_MARK);
    }

    /** Undoes a {@link #seal} whose file could not be removed: the journal goes on (the seal's owner only). */
    void unseal() {
        reserved.compareAndSet(SEALED_MARK, trimmed);
    }

    /**
     * Puts an idle journal away ({@link #seal}) and removes its file: true when it went (stopped, its file
     * gone; callers meet {@link #SEALED}); false when a frame is pending; the journal goes on unsealed when
     * its file could not be removed (thrown, with the journal as it was).
     */
    public boolean putAway() throws IOException {
        if (!seal()) {
            return false;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            unseal();
            throw e;
        }
        disabled = true;
        LIVE.remove(path.toAbsolutePath());
        return true;
    }

    /** Stops the journal and removes its file (every record reached the file). */
    public void delete() throws IOException {
        if (disabled) {
            return; // stopped before (retired, abandoned, faulted): the file at the path may be another writer's now
        }
        disabled = true;
        LIVE.remove(path.toAbsolutePath());
        Files.deleteIfExists(path);
    }

    /** Stops the journal and leaves its file for the next start's recovery. */
    public void abandon() {
        disabled = true;
        LIVE.remove(path.toAbsolutePath());
    }
}
