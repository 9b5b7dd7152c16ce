package dev.spool.bench.agent;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link JulFileHandlerBench} in a JVM started with the agent: the handler's bytes go through the
 * sink. Run from the repository root (the agent path is relative), after
 * {@code mvn -B -q -DskipTests package}.
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar")
public class JulFileHandlerAgentBench extends JulFileHandlerBench {
    @Override
    String loggerName() {
        return "bench.agent";
    }
}
