package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** One CLI command. Adding a command: one class implementing this, one line in {@link SpoolCli#COMMANDS}. */
public interface Command {
    /** The word that selects this command, e.g. {@code cat}. */
    String name();

    /** One line: arguments and what the command does, for {@code --help}. */
    String usage();

    /**
     * Runs with the arguments after the command word; returns the exit code. Output to {@code out},
     * errors to {@code err}; never calls {@link System#exit}.
     */
    int run(List<String> args, PrintStream out, PrintStream err);
}
