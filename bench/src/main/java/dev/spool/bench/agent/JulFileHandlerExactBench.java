package dev.spool.bench.agent;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link JulFileHandlerBench} with the agent under {@code spool.events.visibility=exact}: what the
 * exact setting costs next to plain ({@link JulFileHandlerPlainBench}) and the default
 * ({@link JulFileHandlerAgentBench}, bounded visibility). Run from the repository root.
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar=spool.events.visibility=exact")
public class JulFileHandlerExactBench extends JulFileHandlerBench {
    @Override
    String loggerName() {
        return "bench.exact";
    }
}
