package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;

/**
 * JUL {@code FileHandler} + {@code SimpleFormatter} with a realistic layout ({@link JulSimpleLines})
 * under the agent ({@code -javaagent:agent/target/spool-agent.jar}, run from the repository root):
 * Spool's JUL route with capture at the call (issue 13). The same contender without the agent is
 * {@link TextAnchorBench}'s {@code julSimple}.
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar")
public class JulAgentAnchorBench extends AnchorBench {
    @Param({"julSimple"})
    public String contender;

    @Override
    protected String contender() {
        return contender;
    }
}
