package dev.spool.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import dev.spool.events.ReadProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** {@code cat <file> [--from N]}: events as JSON lines (parts joined), skipping the first N records. */
final class CatCommand implements Command {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "cat";
    }

    @Override
    public String usage() {
        return "<file> [--from N]   print the events of an event file as JSON lines, from record N (0-based); damage is reported on stderr";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        String file = null;
        long from = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--from")) {
                if (i + 1 >= args.size()) {
                    err.println("spool cat: --from needs a record number");
                    return SpoolCli.USAGE;
                }
                try {
                    from = Long.parseLong(args.get(++i));
                } catch (NumberFormatException e) {
                    from = -1;
                }
                if (from < 0) {
                    err.println("spool cat: --from " + args.get(i) + " is not a record number (0 or more)");
                    return SpoolCli.USAGE;
                }
            } else if (file == null) {
                file = a;
            } else {
                err.println("spool cat: unexpected argument '" + a + "'");
                return SpoolCli.USAGE;
            }
        }
        if (file == null) {
            err.println("usage: spool cat " + usage());
            return SpoolCli.USAGE;
        }
        try (EventReader r = EventReader.open(Path.of(file))) {
            long n = 0;
            for (EventRecord rec : r) {
                if (n++ >= from) {
                    out.println(JSON.writeValueAsString(rec.value()));
                }
            }
            out.flush();
            for (ReadProblem p : r.problems()) {
                err.println("spool cat: " + file + ": " + p);
            }
            return r.sound() ? SpoolCli.OK : SpoolCli.PROBLEM;
        } catch (IOException | UncheckedIOException e) {
            err.println("spool cat: " + file + ": " + e.getMessage());
            return SpoolCli.USAGE;
        }
    }
}
