package dev.spool.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar spool-agent.jar <command> [args]}: dispatches to a {@link Command}. Exit codes:
 * 0 success, 1 the command found a problem (e.g. {@code verify} of a damaged file, a temp file
 * {@code recover} could not remove), 2 usage or
 * I/O error. {@link #run} is the in-process entry point used by tests.
 */
public final class SpoolCli {
    public static final int OK = 0;
    public static final int PROBLEM = 1;
    public static final int USAGE = 2;

    /** Every command; add a line here for a new one. */
    static final List<Command> COMMANDS = List.of(
            new CatCommand(),
            new VerifyCommand(),
            new AttachCommand(),
            new StatusCommand(),
            new FlushCommand(),
            new ShipCommand(),
            new RecoverCommand());

    private SpoolCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            help(err);
            return USAGE;
        }
        String word = args[0];
        if (word.equals("--help") || word.equals("-h") || word.equals("help")) {
            help(out);
            return OK;
        }
        if (word.equals("--version")) {
            out.println("spool " + version());
            return OK;
        }
        for (Command c : COMMANDS) {
            if (c.name().equals(word)) {
                try {
                    return c.run(Arrays.asList(args).subList(1, args.length), out, err);
                } catch (RuntimeException e) {
                    err.println("spool " + word + ": " + e);
                    return USAGE;
                }
            }
        }
        err.println("spool: unknown command '" + word + "'");
        help(err);
        return USAGE;
    }

    static String version() {
        String v = SpoolCli.class.getPackage().getImplementationVersion();
        return v != null ? v : "(development build)";
    }

    private static void help(PrintStream p) {
        p.println("usage: java -jar spool-agent.jar <command> [arguments]");
        p.println("commands:");
        for (Command c : COMMANDS) {
            // a command's usage is "<syntax>  <what it does>": align the second column
            String[] parts = c.usage().trim().split("\\s{2,}", 2);
            p.printf("  %-30s %s%n", c.name() + " " + parts[0], parts.length > 1 ? parts[1] : "");
        }
        p.printf("  %-30s %s%n", "--help", "this text");
        p.printf("  %-30s %s%n", "--version", "the Spool version");
    }
}
