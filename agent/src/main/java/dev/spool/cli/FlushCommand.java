package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code flush <pid>}: writes every buffered file and drains every routed stream of a running JVM; prints a summary, or the JSON answer with {@code --json}. */
public final class FlushCommand implements Command {

    @Override
    public String name() {
        return "flush";
    }

    @Override
    public String usage() {
        return "<pid> [--json]  write every buffered file and drain every routed stream of a running JVM";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        return AgentCommand.run(name(), usage(), args, out, err);
    }
}
