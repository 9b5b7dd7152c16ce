package dev.spool.agent.logback;

import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.PendingFrames;
import dev.spool.agent.journal.RecoveryAppends;
import dev.spool.agent.journal.RecoveryTarget;
import dev.spool.internal.jfr.SpoolJfr;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Replays the journal a killed process left beside a Logback appender's file
 * ({@code <file>.spool-logback-journal}, {@link LogbackJournalWriter}) at the next start of routing
 * for that file (issue 33): on the host's thread that opens the file, before the sink attaches it.
 * Each event left is rebuilt ({@link LogbackJournalCodec#decode}) and encoded by the appender's own
 * encoder now (the journal's header holds the killed run's pattern: a different one is named in
 * the note); bytes Logback encoded itself ({@link MappedLogJournal#BYTES} frames) are written as they are; a line already at its recorded offset is skipped, the rest of a torn one appended, the
 * others appended after the last line ({@link RecoveryAppends#place}), in the order the writer left
 * them, once. The file of an appender with {@code append=false} takes no line when empty (it truncated
 * it and writes from offset 0): they go beside it ({@link RecoveryTarget}); {@code append=true}, Logback's
 * default, appends after them, so its file takes them even when empty (a roll just before the kill).
 * {@code spool recover FILE} replays a journal of bytes only ({@link #recoverBytes}: an appender Spool does
 * not defer); one holding captured events it cannot encode (no Logback there): the appender's next start does.
 *
 * <p>Not thread-safe; one recovery per file at a time (the host opens its file under the appender's lock).
 */
public final class LogbackJournalRecovery {

    /** What a recovery did: lines appended (whole or the rest of a torn one), bytes, a note (or null), a problem (or null). */
    public record Result(long lines, long bytes, String note, String problem) implements dev.spool.agent.journal.RecoveryOutcome {
        static final Result NOTHING = new Result(0, 0, null, null);

        /** One line for the agent's log. */
        @Override
        public String describe(Path file) {
            String s = file + ": " + lines + " journaled Logback lines recovered (" + bytes + " bytes)";
            return problem != null ? file + ": " + problem : note == null ? s : s + "; " + note;
        }
    }

    private LogbackJournalRecovery() {
    }

    /** Whether a Logback journal is beside {@code logFile}. */
    public static boolean hasJournal(Path logFile) {
        return Files.isRegularFile(LogbackJournalWriter.journalOf(logFile), LinkOption.NOFOLLOW_LINKS);
    }

    /** Replays the journal beside {@code logFile}, if any, encoding with {@code appender}'s encoder. */
    public static Result recoverAtRoutingStart(Object appender, Path logFile) throws IOException {
        Path jp = LogbackJournalWriter.journalOf(logFile);
        if (!Files.isRegularFile(jp, LinkOption.NOFOLLOW_LINKS) || MappedLogJournal.live(jp)) {
            return Result.NOTHING; // none, or this process writes it now (a roll that kept the name)
        }
        return recover(appender, logFile, jp);
    }

    /**
     * {@code spool recover FILE}: replays the journal beside {@code logFile} when every line it holds is
     * bytes Logback encoded itself ({@link MappedLogJournal#BYTES}: an appender Spool does not defer), as
     * they are; one holding captured events is refused with nothing changed (no Logback here to encode
     * them: the application's next start does), and so is one whose process runs.
     */
    public static Result recoverBytes(Path logFile) throws IOException {
        Path jp = LogbackJournalWriter.journalOf(logFile);
        if (!Files.isRegularFile(jp, LinkOption.NOFOLLOW_LINKS)) {
            return new Result(0, 0, null, "no Logback journal (" + jp.getFileName() + ") beside it");
        }
        return recover(null, logFile, jp);
    }

    private static Result recover(Object appender, Path logFile, Path jp) throws IOException {
        Result r;
        try (FileChannel jc = FileChannel.open(jp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = jc.size();
            String wrong = size < MappedLogJournal.HEADER + 8 || size > Integer.MAX_VALUE
                    ? "its size (" + size + " bytes) is not a journal's" : null;
            MappedByteBuffer m = null;
            if (wrong == null) {
                m = jc.map(FileChannel.MapMode.READ_WRITE, 0, size);
                m.order(ByteOrder.LITTLE_ENDIAN);
                wrong = MappedLogJournal.headerProblem(m, size, MappedLogJournal.LOGBACK_MAGIC);
            }
            if (wrong != null) {
                String removed = appender == null ? null : dev.spool.agent.journal.UnfinishedJournal.removeIfNeverWritten(jp);
                return removed != null ? new Result(0, 0, removed, null)
                        : new Result(0, 0, null, appender == null ? "journal " + jp + " not replayed: " + wrong + "; nothing changed"
                        : MappedLogJournal.orphan(jp, wrong)); // the command changes nothing; a start moves it out of the way
            }
            long pid = m.getLong(MappedLogJournal.PID_OFFSET);
            if (appender == null) {
                r = replayBytes(logFile, jp, m, pid);
                if (r.problem != null) {
                    return r; // nothing changed
                }
            } else if (pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                // Logback takes no lock on its file: another running process may write it (and this journal) now
                return new Result(0, 0, null, "journal " + jp + " belongs to process " + pid + ", which is running: not"
                        + " replayed (its agent writes those lines); this appender's events are captured without a journal");
            } else {
                Object encoder = appender.getClass().getMethod("getEncoder").invoke(appender);
                LogbackJournalCodec codec = LogbackJournalCodec.of(Class.forName(LogbackConverters.EVENT, false,
                        appender.getClass().getClassLoader()));
                r = replay(logFile, m, pending(m), appends(appender) ? RecoveryTarget.When.APPENDING_START
                        : RecoveryTarget.When.ROUTING_START, encoder, codec);
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            return new Result(0, 0, null, "journal " + jp + " not replayed: the appender's Logback cannot be used (" + e
                    + "); kept for its next start");
        }
        Files.delete(jp);
        if (r.lines > 0) {
            SpoolJfr.journalRecovered(logFile, r.lines, r.bytes);
        }
        return r;
    }

    /** Whether the appender opened its file to append ({@code isAppend()}, Logback's default); false when unknown. */
    private static boolean appends(Object appender) {
        try {
            return Boolean.TRUE.equals(appender.getClass().getMethod("isAppend").invoke(appender));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false; // unknown: an empty file takes no line (they go beside it)
        }
    }

    /** {@link #recoverBytes}'s checks, then its replay: a problem (nothing changed) or what was done. */
    private static Result replayBytes(Path logFile, Path jp, MappedByteBuffer m, long pid)
            throws IOException, ReflectiveOperationException {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return new Result(0, 0, null, "journal " + jp + " belongs to process " + pid + ", which is running: not replayed");
        }
        int[] frames = pending(m);
        long events = Arrays.stream(frames).filter(at -> m.getLong(at + 24) != MappedLogJournal.BYTES).count();
        if (events > 0) {
            return new Result(0, 0, null, "its Logback journal (" + jp.getFileName() + ") holds " + events + " captured events;"
                    + " the application's next start with the agent replays them with its appender's own encoder (this"
                    + " command has no Logback to encode them with): nothing changed");
        }
        return replay(logFile, m, frames, RecoveryTarget.When.RECOVER_COMMAND, null, null);
    }

    /** The frames left in the journal {@code m}, in the order their lines go to the file. */
    private static int[] pending(MappedByteBuffer m) {
        return PendingFrames.walk(m, m.getInt(MappedLogJournal.RING_BYTES_OFFSET), m.getLong(MappedLogJournal.TRIMMED_OFFSET), null);
    }

    /** {@code encoder} null: every frame is {@link MappedLogJournal#BYTES} ({@link #replayBytes} checked). */
    private static Result replay(Path logFile, MappedByteBuffer m, int[] frames, RecoveryTarget.When when, Object encoder,
                                 LogbackJournalCodec codec) throws IOException, ReflectiveOperationException {
        MethodHandle encode = encoder == null ? null : MethodHandles.publicLookup().findVirtual(encoder.getClass(), "encode",
                MethodType.methodType(byte[].class, Object.class));
        boolean existed = Files.exists(logFile, LinkOption.NOFOLLOW_LINKS);
        RecoveryTarget target = RecoveryTarget.of(logFile, m, frames, when);
        if (target.done()) {
            return new Result(0, 0, target.note(logFile), null);
        }
        long lines = 0;
        long bytes = 0;
        long misplaced = 0;
        long unreadable = 0;
        String firstProblem = null;
        try (target; FileChannel ch = FileChannel.open(target.write, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            RecoveryAppends file = new RecoveryAppends(ch);
            byte[] payload = new byte[0];
            for (int at : frames) {
                int len = m.getInt(at);
                if (payload.length < len) {
                    payload = new byte[len];
                }
                m.get(at + MappedLogJournal.FRAME_HEADER, payload, 0, len);
                byte[] line;
                try {
                    line = m.getLong(at + 24) == MappedLogJournal.BYTES ? Arrays.copyOf(payload, len) // as Logback wrote them
                            : (byte[]) encode.invoke(encoder, codec.decode(payload, 0, len));
                } catch (Throwable t) { // whole by its CRC, yet not rebuilt or not encoded: named, never guessed at
                    unreadable++;
                    firstProblem = firstProblem == null ? t.toString() : firstProblem;
                    continue;
                }
                long wrote = line == null ? 0 : file.place(m, at, line, 0, line.length);
                if (wrote != 0) {
                    lines++;
                    bytes += Math.abs(wrote);
                    misplaced += wrote < 0 ? 1 : 0;
                }
            }
            file.flush();
        }
        target.finish();
        String note = target.note(logFile) != null ? target.note(logFile) : !existed && lines > 0
                ? "the log file was gone (moved or deleted): recreated at " + logFile
                : misplaced > 0 ? misplaced + " lines were not where the writer left them (the file was moved, replaced or"
                + " truncated since?): appended at its end" : null;
        String pattern = text(m, MappedLogJournal.FORMAT_OFFSET);
        if (encoder != null && !pattern.equals(LogbackJournalWriter.patternOf(encoder))) {
            note = (note == null ? "" : note + "; ") + "encoded with the appender's encoder now, whose pattern is not the"
                    + " killed run's (" + pattern + ")";
        }
        if (unreadable > 0) {
            note = (note == null ? "" : note + "; ") + unreadable + " journaled events could not be encoded (not replayed; first: "
                    + firstProblem + ")";
        }
        return new Result(lines, bytes, note, null);
    }

    private static String text(MappedByteBuffer m, int offset) {
        byte[] b = new byte[m.getInt(offset)];
        m.get(offset + 4, b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
