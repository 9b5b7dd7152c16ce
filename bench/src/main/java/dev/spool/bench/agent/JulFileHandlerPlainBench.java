package dev.spool.bench.agent;

import org.openjdk.jmh.annotations.Fork;

/** Anchor: {@link JulFileHandlerBench} in a JVM without the agent. */
@Fork(1)
public class JulFileHandlerPlainBench extends JulFileHandlerBench {
    @Override
    String loggerName() {
        return "bench.plain";
    }
}
