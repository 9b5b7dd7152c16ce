package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code status <pid> [--json]}: the installed agent's state (routing, instrumented classes, routed
 * logs, buffer, errors) as a short summary, or with {@code --json} as one JSON object (configuration
 * included). Asked through the target's local JMX connector when the agent's beans are there.
 */
public final class StatusCommand implements Command {

    @Override
    public String name() {
        return "status";
    }

    @Override
    public String usage() {
        return "<pid> [--json]  the agent's state in a running JVM (a summary; --json: everything, as JSON)";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        return AgentCommand.run(name(), usage(), args, out, err);
    }
}
