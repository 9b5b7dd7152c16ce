package dev.spool.agent.journal;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Where a log journal's recovery ({@link MappedLogJournal}) writes its lines (issue 33): into the log file, or, when the log
 * file is empty where it should not be, into a file beside it,
 * {@code <log>.spool-recovered-<killed pid>-<millis>} (a name no earlier recovery used), named in the result.
 *
 * <p><b>At the start of routing</b> (the host's {@code FileHandler} has just opened the file) an
 * empty file takes no line: a handler opened with {@code append=false}, JUL's default, truncated it
 * and writes from offset 0, over anything recovery would append (seen: the new file was not even
 * valid UTF-8). Plain JUL would have written the killed run's lines before the kill and truncated
 * them away with this open; writing them into the new file would differ from plain and dropping them
 * would lose them, so they go beside it. (An {@code append=true} handler whose killed run had not
 * got a line into the file yet finds it empty too: its lines go beside it as well, never lost.)
 *
 * <p><b>From {@code spool recover FILE}</b> (no host has the file open) only a file emptied since the
 * kill: it holds 0 bytes while the killed writer had lines in it (the offset up to which they had
 * reached the file, {@link MappedLogJournal#REACHED_OFFSET}, or the first line it placed is past 0), e.g.
 * a {@code logrotate copytruncate} between the kill and the recovery.
 *
 * <p><b>At attach's takeover</b> of a handler that has been writing the file plainly: always beside
 * it (this run's lines are in the file already; the killed run's belong before them), except a line
 * found at its recorded offset in the log ({@link #inLog}: it reached the file before the kill).
 *
 * <p><b>A recovery killed half-way.</b> The decision, with the side file's name, is stored in the
 * journal's header ({@link MappedLogJournal#DIVERTED_OFFSET}) before the first line is written; the lines
 * go into {@code <side>.tmp} with the usual per-line offsets (so a rerun skips what is there and
 * completes a torn line), which becomes the side file by an atomic rename before the journal is
 * removed; a line skipped as in the log is marked done first. A rerun that finds the header's side
 * file there writes nothing.
 *
 * <p>Not thread-safe.
 */
public final class RecoveryTarget implements AutoCloseable {
    public static final String SIDE_SUFFIX = ".spool-recovered-";

    /**
     * Who recovers: the CLI (no host has the file open), the start of routing, the start of routing
     * of a file its owner opened to append (a Logback appender with {@code append=true}: its writes go
     * after whatever recovery appends, so even an empty file takes the lines), or attach's takeover.
     */
    public enum When { RECOVER_COMMAND, ROUTING_START, APPENDING_START, TAKEOVER }

    /** The file lines are placed into now. */
    public final Path write;
    /** The side file, or null when the lines go into the log file. */
    private final Path side;
    /** The decision was in the header before this recovery: a side file there is this journal's, written whole. */
    private final boolean resumed;
    /** At takeover, the log, read to skip lines that reached it (null otherwise). */
    private final FileChannel log;

    private RecoveryTarget(Path write, Path side, boolean resumed, FileChannel log) {
        this.write = write;
        this.side = side;
        this.resumed = resumed;
        this.log = log;
    }

    /**
     * The target for {@code logFile}'s journal {@code m} whose frames (mapping offsets) are in the
     * order their lines go to the file (recorded offsets ascending, never-written ones last),
     * recovered {@code when}.
     */
    public static RecoveryTarget of(Path logFile, MappedByteBuffer m, int[] sorted, When when) throws IOException {
        return of(logFile, m, sorted, when, null);
    }

    /**
     * As {@link #of(Path, MappedByteBuffer, int[], When)}; {@code previous} (may be null) is where the
     * killed run's file went at this start of routing: a rotating JUL handler opened with
     * {@code append=false} renames generation 0 to 1 before it opens a new, empty one. Lines diverted
     * beside the new file are then skipped when found at their recorded offset in it (they reached the
     * file before the kill and are there still), as at a takeover.
     */
    public static RecoveryTarget of(Path logFile, MappedByteBuffer m, int[] sorted, When when, Path previous)
            throws IOException {
        return of(logFile, m, sorted, when, previous, 0);
    }

    /**
     * As {@link #of(Path, MappedByteBuffer, int[], When, Path)}; {@code head}: the length of the head a JUL
     * {@code XMLFormatter} journal's writer puts before a file's first line ({@link MappedLogJournal#HEAD_AT_OFFSET}),
     * 0 for none. A first line placed right after a head at offset 0 is no sign that the killed writer had
     * anything in the file (a kill right after a rotation), as a first line at 0 is none.
     */
    public static RecoveryTarget of(Path logFile, MappedByteBuffer m, int[] sorted, When when, Path previous, int head)
            throws IOException {
        long token = m.getLong(MappedLogJournal.DIVERTED_OFFSET);
        boolean resumed = token != 0;
        if (!resumed) {
            long first = sorted.length == 0 ? -1 : m.getLong(sorted[0] + 16);
            if (head > 0 && first == head && m.getLong(MappedLogJournal.HEAD_AT_OFFSET) == 0) {
                first = 0;
            }
            boolean had = when != When.RECOVER_COMMAND || Math.max(first, m.getLong(MappedLogJournal.REACHED_OFFSET)) > 0;
            if (sorted.length == 0 || when == When.APPENDING_START || when != When.TAKEOVER && !(had && Files.isRegularFile(logFile, LinkOption.NOFOLLOW_LINKS)
                    && Files.size(logFile) == 0)) {
                return new RecoveryTarget(logFile, null, false, null);
            }
            token = Math.max(1, System.currentTimeMillis());
            while (Files.exists(side(logFile, m, token), LinkOption.NOFOLLOW_LINKS)
                    || Files.exists(tmp(side(logFile, m, token)), LinkOption.NOFOLLOW_LINKS)) {
                token++; // a name no earlier recovery used (a pid comes back: pid 1 in every container start)
            }
            m.putLong(MappedLogJournal.DIVERTED_OFFSET, token); // first: a recovery killed from here on resumes this file
        }
        Path side = side(logFile, m, token);
        Path read = when == When.TAKEOVER ? logFile : when == When.ROUTING_START ? previous : null;
        FileChannel log = read != null && !resumed && Files.isRegularFile(read, LinkOption.NOFOLLOW_LINKS)
                ? FileChannel.open(read, StandardOpenOption.READ) : null;
        return new RecoveryTarget(tmp(side), side, resumed, log);
    }

    private static Path side(Path logFile, MappedByteBuffer m, long token) {
        return logFile.resolveSibling(logFile.getFileName() + SIDE_SUFFIX + m.getLong(MappedLogJournal.PID_OFFSET) + "-" + token);
    }

    private static Path tmp(Path side) {
        return side.resolveSibling(side.getFileName() + ".tmp");
    }

    /** Whether an earlier recovery of this journal, killed before it removed the journal, made the side file whole. */
    public boolean done() {
        return resumed && Files.exists(side, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * At takeover, whether the line ({@code length} bytes of {@code bytes} from {@code from}) is in the
     * log at {@code pos}, its recorded offset: it reached
     * the file before the kill (its frame was not marked done yet), so it is not copied beside it.
     */
    public boolean inLog(long pos, byte[] bytes, int from, int length) throws IOException {
        if (log == null || pos < 0 || pos + length > log.size()) {
            return false;
        }
        byte[] there = RecoveryAppends.readAt(log, pos, length);
        return there != null && Arrays.equals(there, 0, length, bytes, from, from + length);
    }

    /** After the last line: the side file takes its name (nothing to do for the log file). */
    public void finish() throws IOException {
        if (side != null && Files.exists(write, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(write, side, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** The result's note for a diverted recovery, or null. */
    public String note(Path logFile) {
        return side == null ? null : logFile + " was empty (a FileHandler opened with append=false, JUL's default, or"
                + " emptied since the kill) or written by this run before attach: the killed run's lines "
                + (done() ? "were put" : "are") + " in " + side + ", not in it";
    }

    @Override
    public void close() throws IOException {
        if (log != null) {
            log.close();
        }
    }
}
