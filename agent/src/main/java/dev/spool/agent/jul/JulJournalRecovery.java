package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.PendingFrames;
import dev.spool.agent.journal.RecoveryAppends;
import dev.spool.agent.journal.RecoveryTarget;

import dev.spool.internal.jfr.SpoolJfr;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Supplier;

/**
 * Replays the journal ({@link MappedLogJournal}) a killed process left beside a JUL log file into it,
 * exactly once, each line whole, per thread in order (issue 33). Runs at the start of routing for
 * the file (the agent wrapping the {@code FileHandler}'s stream, before anything new is written:
 * the handler's lock file keeps any other process off the file) and from {@code spool recover FILE}.
 *
 * <p><b>Steps.</b> The ring is scanned from its trimmed offset for whole frames (the offset stored
 * in the frame is the one expected there, the CRC matches; a frame a kill cut short, or space
 * reserved and not yet stored, is stepped over 8 bytes at a time); done frames are skipped. Each
 * other frame is formatted with the journal's format string ({@link CompiledSimpleFormatter}; an
 * {@code XMLFormatter}'s journal, magic {@code SPOOLJXM}: {@link JulXmlFormat}, its head first where the
 * file lacks it, {@code RecoveryAppends#completeHead}) and
 * encoded in its charset, then compared with the file at the offset the writer recorded for it:
 * all there, it is skipped (a kill between the file write and the trim); a prefix there ending
 * the file, the rest is appended (a torn write); otherwise (never written, or the file is not as
 * the writer left it) the line is appended at the file's end, after its new offset is stored into
 * the frame, so a recovery killed half-way skips it the next time. The journal is removed last.
 *
 * <p>A log file moved or deleted since: the lines go to a file recreated at the path, and the
 * result says so; emptied since (a {@code FileHandler} opened with {@code append=false}): beside it
 * ({@link RecoveryTarget}). A damaged journal is renamed {@code <journal>.orphan-<ms>} and reported. Not
 * thread-safe; one call at a time per file.
 */
public final class JulJournalRecovery {

    /** What a recovery did: lines appended (whole or the rest of a torn one), bytes, a note (or null), a problem (or null). */
    public record Result(long lines, long bytes, String note, String problem) implements dev.spool.agent.journal.RecoveryOutcome {
        static final Result NOTHING = new Result(0, 0, null, null);

        /** One line for the CLI and the agent's log. */
        @Override
        public String describe(Path file) {
            String s = file + ": " + lines + " journaled JUL lines recovered (" + bytes + " bytes)";
            return problem != null ? file + ": " + problem : note == null ? s : s + "; " + note;
        }
    }

    private JulJournalRecovery() {
    }

    /** The journal beside {@code logFile} exists (a JUL log file, as opposed to an event file). */
    public static boolean hasJournal(Path logFile) {
        return Files.isRegularFile(MappedLogJournal.journalOf(logFile), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Replays the journal of {@code logFile}, if any.
     *
     * @param refuseLiveOwner refuse a journal whose writing process is still running ({@code spool recover})
     */
    public static Result recover(Path logFile, boolean refuseLiveOwner) throws IOException {
        return recover(logFile, refuseLiveOwner, RecoveryTarget.When.RECOVER_COMMAND);
    }

    /**
     * Replays the journal of {@code logFile}, if any, at the start of routing for it: the host's
     * {@code FileHandler} has just opened the file, so an empty file takes no replayed line (a
     * handler opened with {@code append=false}, JUL's default, writes from offset 0 over them):
     * they go beside it ({@link RecoveryTarget}).
     */
    public static Result recoverAtRoutingStart(Path logFile, boolean appending) throws IOException {
        return recoverAtRoutingStart(logFile, appending, null);
    }

    /**
     * As {@link #recoverAtRoutingStart(Path, boolean)}; {@code previous} (may be null): where a rotating
     * handler that does not append just renamed the killed run's file ({@link RecoveryTarget}).
     */
    public static Result recoverAtRoutingStart(Path logFile, boolean appending, Path previous) throws IOException {
        return recover(logFile, false, appending ? RecoveryTarget.When.APPENDING_START : RecoveryTarget.When.ROUTING_START,
                previous);
    }

    /**
     * Replays the journal of {@code logFile}, if any, when {@code attach} takes over a handler that
     * has been writing the file plainly: the lines go beside it ({@link RecoveryTarget}). A
     * journal of another running process is refused.
     */
    static Result recoverAtTakeover(Path logFile) throws IOException {
        return recover(logFile, true, RecoveryTarget.When.TAKEOVER);
    }

    private static Result recover(Path logFile, boolean refuseLiveOwner, RecoveryTarget.When when) throws IOException {
        return recover(logFile, refuseLiveOwner, when, null);
    }

    private static Result recover(Path logFile, boolean refuseLiveOwner, RecoveryTarget.When when, Path previous)
            throws IOException {
        Path jp = MappedLogJournal.journalOf(logFile);
        if (!Files.isRegularFile(jp, LinkOption.NOFOLLOW_LINKS)
                || when != RecoveryTarget.When.RECOVER_COMMAND && MappedLogJournal.live(jp)) {
            return Result.NOTHING; // none, or this process writes it now (a handler routed already)
        }
        Result r;
        String wrong;
        try (FileChannel jc = FileChannel.open(jp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = jc.size();
            if (size < MappedLogJournal.HEADER + 8 || size > Integer.MAX_VALUE) {
                wrong = "its size (" + size + " bytes) is not a journal's";
                r = null;
            } else {
                MappedByteBuffer m = jc.map(FileChannel.MapMode.READ_WRITE, 0, size);
                m.order(ByteOrder.LITTLE_ENDIAN);
                boolean xml = MappedLogJournal.hasMagic(m, MappedLogJournal.XML_MAGIC);
                wrong = MappedLogJournal.headerProblem(m, size, xml ? MappedLogJournal.XML_MAGIC : MappedLogJournal.MAGIC);
                long pid = m.getLong(MappedLogJournal.PID_OFFSET);
                if (wrong == null && refuseLiveOwner && pid != ProcessHandle.current().pid()
                        && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    return new Result(0, 0, null, "journal " + jp + " belongs to process " + pid + ", which is running:"
                            + " not replayed (its agent writes those lines)");
                }
                r = wrong == null ? replay(logFile, m, when, previous, xml) : null;
            }
        } catch (IllegalArgumentException e) { // its format string or charset is not one Spool reproduces
            wrong = "its header cannot be used (" + e.getMessage() + ")";
            r = null;
        }
        if (r == null) {
            if (when == RecoveryTarget.When.RECOVER_COMMAND) { // bad input: the command changes nothing on disk
                return new Result(0, 0, null, "journal " + jp + " not replayed: " + wrong + "; nothing changed");
            }
            String removed = dev.spool.agent.journal.UnfinishedJournal.removeIfNeverWritten(jp);
            return removed != null ? new Result(0, 0, removed, null) : new Result(0, 0, null, MappedLogJournal.orphan(jp, wrong));
        }
        Files.delete(jp);
        if (r.lines > 0) {
            SpoolJfr.journalRecovered(logFile, r.lines, r.bytes);
        }
        return r;
    }

    private static Result replay(Path logFile, MappedByteBuffer m, RecoveryTarget.When when, Path previous, boolean xml)
            throws IOException {
        String format = text(m, MappedLogJournal.FORMAT_OFFSET);
        Charset charset = Charset.forName(text(m, MappedLogJournal.CHARSET_OFFSET));
        Supplier<JulRecoveryFormatter.Lines> made;
        byte[] head = null; // XMLFormatter's: before a file's first record
        if (xml) {
            int nl = format.indexOf('\n');
            String kind = nl < 0 ? format : format.substring(0, nl);
            if (!kind.equals(JulXmlFormat.INSTANT) && !kind.equals(JulXmlFormat.LOCAL)) {
                throw new IllegalArgumentException("an XML journal of kind '" + kind + "'");
            }
            boolean instant = kind.equals(JulXmlFormat.INSTANT);
            head = (nl < 0 ? "" : format.substring(nl + 1)).getBytes(charset);
            made = () -> new JulXmlRecoveryLines(instant, charset);
        } else {
            made = () -> new JulRecoveryLines(CompiledSimpleFormatter.compile(format), charset);
        }
        int ring = m.getInt(MappedLogJournal.RING_BYTES_OFFSET);
        long trimmed = m.getLong(MappedLogJournal.TRIMMED_OFFSET);
        boolean existed = Files.exists(logFile, LinkOption.NOFOLLOW_LINKS);
        long lines = 0;
        long bytes = 0;
        long misplaced = 0;
        long unreadable = 0;
        try (JulRecoveryFormatter formatted = new JulRecoveryFormatter(m, made)) {
            int[] frames = frames(m, ring, trimmed, formatted); // batches are formatted from here on, during the scan
            RecoveryTarget target = RecoveryTarget.of(logFile, m, frames, when, previous, head == null ? 0 : head.length);
            if (target.done()) {
                return new Result(0, 0, target.note(logFile), null);
            }
            formatted.start(frames);
            try (target; FileChannel ch = FileChannel.open(target.write, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                RecoveryAppends file = new RecoveryAppends(ch);
                for (int b = 0, batches = formatted.batches(); b < batches; b++) {
                    JulRecoveryLines.Batch batch = next(formatted);
                    for (int i = 0, n = batch.lines(); i < n; i++) {
                        if (batch.unreadable[i]) {
                            unreadable++; // whole by its CRC, yet not formattable: named below, never guessed at
                            continue;
                        }
                        int from = batch.from(i);
                        int at = frames[b * JulRecoveryFormatter.BATCH + i];
                        if (target.inLog(m.getLong(at + 16), batch.bytes, from, batch.ends[i] - from)) {
                            m.putLong(at + 24, MappedLogJournal.DONE); // reached the log before the kill: not copied beside it
                            continue;
                        }
                        if (head != null && !file.there(m.getLong(at + 16), batch.bytes, from, batch.ends[i] - from)) {
                            // the head the killed run's file lacks, before the first line appended
                            bytes += file.completeHead(head, m.getLong(MappedLogJournal.HEAD_AT_OFFSET),
                                    JulXmlFormat.TAIL.getBytes(charset));
                            head = null;
                        }
                        long wrote = file.place(m, at, batch.bytes, from, batch.ends[i] - from);
                        if (wrote != 0) {
                            lines++;
                            bytes += Math.abs(wrote);
                            misplaced += wrote < 0 ? 1 : 0;
                        }
                    }
                }
                file.flush();
            }
            target.finish();
            String note = target.note(logFile) != null ? target.note(logFile) : !existed && lines > 0
                    ? "the log file was gone (moved or deleted): recreated at " + logFile
                    : misplaced > 0 ? misplaced + " lines were not where the writer left them (the file was moved, replaced or"
                    + " truncated since?): appended at its end" : null;
            if (unreadable > 0) {
                note = (note == null ? "" : note + "; ") + unreadable + " journaled records could not be formatted (not replayed)";
            }
            return new Result(lines, bytes, note, null);
        }
    }

    /** The next batch of lines; an interrupt ends the recovery as an I/O interrupt (the journal stays). */
    private static JulRecoveryLines.Batch next(JulRecoveryFormatter formatted) throws IOException {
        try {
            return formatted.next();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while recovering a JUL journal");
        }
    }

    /**
     * The pending frames in file order ({@link PendingFrames}); while the journal's order holds, each
     * whole batch is handed to {@code formatted} during the scan (formatted ahead on other threads).
     */
    private static int[] frames(MappedByteBuffer m, int ring, long trimmed, JulRecoveryFormatter formatted) {
        return PendingFrames.walk(m, ring, trimmed, new PendingFrames.Listener() {
            @Override
            public void found(int[] at, int n) {
                if (n % JulRecoveryFormatter.BATCH == 1 && n > JulRecoveryFormatter.BATCH) {
                    formatted.scanned(at, n - 1 - JulRecoveryFormatter.BATCH); // that batch is whole, a later one exists
                }
            }

            @Override
            public void unordered() {
                formatted.discard();
            }
        });
    }

    private static String text(ByteBuffer m, int offset) {
        byte[] b = new byte[m.getInt(offset)];
        m.get(offset + 4, b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
