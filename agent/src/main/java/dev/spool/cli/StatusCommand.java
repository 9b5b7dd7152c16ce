package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code status <pid>}: the installed agent's state as one JSON object (routing, instrumented classes, buffer, configuration). */
public final class StatusCommand implements Command {

    @Override
    public String name() {
        return "status";
    }

    @Override
    public String usage() {
        return "<pid>  the agent's state in a running JVM, as JSON";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        return AgentCommand.run(name(), usage(), args, out, err);
    }
}
