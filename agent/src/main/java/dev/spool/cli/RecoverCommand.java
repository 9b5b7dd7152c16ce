package dev.spool.cli;

import dev.spool.buffer.StaleTemps;
import dev.spool.agent.journal.RecoveryOutcome;
import dev.spool.agent.jul.JulJournalRecovery;
import dev.spool.agent.logback.LogbackJournalRecovery;
import dev.spool.events.EventLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code recover <event file>}: replays the journal a killed writer left beside the file
 * ({@link EventLog#recover}; exit 1 when it is not the file's own, renamed {@code .orphan-<ms>}).
 * {@code recover <JUL log file>}: replays the journal {@code <file>.spool-journal} a killed process left
 * ({@link JulJournalRecovery}; refused while its process runs; the file recreated when it is gone).
 * {@code recover <Logback log file>}: replays its journal ({@code <file>.spool-logback-journal}) when it
 * holds only bytes Logback encoded itself (an appender Spool does not defer); one with captured events
 * is refused, exit 1, nothing changed: the application's next start replays it with its appender's
 * encoder ({@link LogbackJournalRecovery}).
 * {@code recover <folder>}: removes the temp files ({@code .<name>.spool-tmp-*}) that crashed Spool
 * processes left directly in the folder, by the rules of {@link StaleTemps} (only Spool's names,
 * only regular files, only when the writer is provably gone or, when it cannot be judged, the file
 * is over an hour old). Prints one {@code removed <file>} line per file removed and one
 * {@code kept <file>: <why>} line per temp file kept, then a summary. Exit 0 when done (kept files
 * of live writers are not a problem), 1 when a file or the folder could not be read or removed
 * (each named on stderr), 2 for usage errors and a folder that is not there.
 */
final class RecoverCommand implements Command {
    @Override
    public String name() {
        return "recover";
    }

    @Override
    public String usage() {
        return "<folder>|<event file>|<log file>  remove the temp files crashed Spool processes left in a folder, or"
                + " replay the journal a killed writer left beside an event file or a log file";
    }

    /** A journal the command replays, or why not. */
    private interface Recovery {
        RecoveryOutcome run() throws IOException;
    }

    /**
     * A log file's journal (issue 33), replayed once: a JUL one ({@code <file>.spool-journal}), or a
     * Logback one ({@code <file>.spool-logback-journal}) of bytes only; one holding captured Logback events
     * is refused, nothing changed (the application's next start encodes them with its appender's encoder).
     */
    private static int recoverLog(Path file, Recovery recovery, PrintStream out, PrintStream err) {
        try {
            RecoveryOutcome r = recovery.run();
            if (r.problem() != null) {
                err.println("spool recover: " + r.describe(file));
                return SpoolCli.PROBLEM;
            }
            out.println(r.describe(file));
            return SpoolCli.OK;
        } catch (IOException | RuntimeException e) {
            err.println("spool recover: " + file + ": " + e);
            return SpoolCli.PROBLEM;
        }
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1) {
            err.println("usage: spool recover " + usage());
            return SpoolCli.USAGE;
        }
        Path folder = Path.of(args.get(0));
        if (JulJournalRecovery.hasJournal(folder.toAbsolutePath())) {
            Path file = folder.toAbsolutePath(); // a JUL log file (there or gone) with its journal
            return recoverLog(file, () -> JulJournalRecovery.recover(file, true), out, err);
        }
        if (LogbackJournalRecovery.hasJournal(folder.toAbsolutePath())) {
            Path file = folder.toAbsolutePath();
            return recoverLog(file, () -> LogbackJournalRecovery.recoverBytes(file), out, err);
        }
        if (Files.isRegularFile(folder)) {
            try {
                out.println(EventLog.recover(folder));
                return SpoolCli.OK;
            } catch (IOException | RuntimeException e) {
                err.println("spool recover: " + folder + ": " + e.getMessage());
                return SpoolCli.PROBLEM;
            }
        }
        if (!Files.isDirectory(folder)) {
            err.println("spool recover: " + folder + ": not a folder or an event file");
            return SpoolCli.USAGE;
        }
        StaleTemps.Sweep s = StaleTemps.sweep(folder);
        s.removed().forEach(p -> out.println("removed " + p));
        s.kept().forEach(k -> out.println("kept " + k));
        s.errors().forEach(e -> err.println("spool recover: " + e));
        out.println(folder + ": " + s.removed().size() + " stale temp files removed, " + s.kept().size() + " kept"
                + (s.errors().isEmpty() ? "" : ", " + s.errors().size() + " errors"));
        return s.errors().isEmpty() ? SpoolCli.OK : SpoolCli.PROBLEM;
    }
}
