package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Fork;

/**
 * Spool's row: the plain {@code FileAppender} contender ({@code logbackFile}) in a fork running
 * the agent at its defaults, which routes the appender's stream and encodes on Spool's thread.
 * Run from the repository root (the agent jar's path is relative).
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar=spool.log.level=warn")
public class LayoutAnchorAgentBench extends LayoutAnchorBase {

    @Override
    protected String contender() {
        return "logbackFile";
    }

    @Override
    protected String label() {
        return "spoolLogback";
    }
}
