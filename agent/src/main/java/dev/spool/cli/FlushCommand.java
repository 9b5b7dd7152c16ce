package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code flush <pid>}: writes every buffered file and drains every routed stream of a running JVM; prints the answer as JSON. */
public final class FlushCommand {

    public static final String USAGE = "flush <pid>                    flush the buffer and sinks of a running JVM";

    private FlushCommand() {}

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return AgentCommand.run("flush", USAGE, args, out, err);
    }
}
