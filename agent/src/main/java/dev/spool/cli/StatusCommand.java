package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code status <pid>}: the installed agent's state as one JSON object (routing, instrumented classes, buffer, configuration). */
public final class StatusCommand {

    public static final String USAGE = "status <pid>                   the agent's state in a running JVM, as JSON";

    private StatusCommand() {}

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return AgentCommand.run("status", USAGE, args, out, err);
    }
}
