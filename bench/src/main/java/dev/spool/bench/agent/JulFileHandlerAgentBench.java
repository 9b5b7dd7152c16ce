package dev.spool.bench.agent;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The same code as {@link JulFileHandlerPlainBench}, in a JVM started with the agent: the
 * handler's bytes go through the sink. Run from the repository root (the agent path is relative),
 * after {@code mvn -B -q -DskipTests package}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar")
public class JulFileHandlerAgentBench {

    private JulLogging jul;
    private long i;

    @Setup(Level.Trial)
    public void open() throws IOException {
        jul = new JulLogging("bench.agent");
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        jul.close();
    }

    @Benchmark
    public void fileHandlerRecord() {
        jul.log(i++);
    }
}
