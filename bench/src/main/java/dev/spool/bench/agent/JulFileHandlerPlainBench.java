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
 * Anchor: one JUL {@code FileHandler} record per operation, no agent (the handler flushes its
 * file after every record). Compare with {@link JulFileHandlerAgentBench} in the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class JulFileHandlerPlainBench {

    private JulLogging jul;
    private long i;

    @Setup(Level.Trial)
    public void open() throws IOException {
        jul = new JulLogging("bench.plain");
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
