package dev.spool.cli;

import dev.spool.events.EventReader;
import dev.spool.events.ReadProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code verify <file>}: reads every record; exit 0 when sound, otherwise prints the offset of
 * the first bad record and how many good records precede it, then every problem, and exits 1.
 */
final class VerifyCommand implements Command {
    @Override
    public String name() {
        return "verify";
    }

    @Override
    public String usage() {
        return "<file>             check an event file; exit 0 when sound, else 1 and where the damage starts";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1) {
            err.println("usage: spool verify " + usage());
            return SpoolCli.USAGE;
        }
        String file = args.get(0);
        try (EventReader r = EventReader.open(Path.of(file))) {
            long records = r.scan();
            if (r.sound()) {
                out.println(file + ": OK, " + records + " records"
                        + (r.paddingFrom() >= 0 ? ", zero padding from offset " + r.paddingFrom() + " (end of data)" : ""));
                return SpoolCli.OK;
            }
            ReadProblem first = r.problems().get(0);
            out.println(file + ": BAD at offset " + first.offset() + ": " + first.goodBefore()
                    + " good records precede it (" + first.kind() + ": " + first.detail() + ")");
            out.println(file + ": " + records + " good records in all, " + r.problems().size() + " problems:");
            for (ReadProblem p : r.problems()) {
                out.println("  " + p);
            }
            return SpoolCli.PROBLEM;
        } catch (IOException | UncheckedIOException e) {
            err.println("spool verify: " + file + ": " + e.getMessage());
            return SpoolCli.USAGE;
        }
    }
}
