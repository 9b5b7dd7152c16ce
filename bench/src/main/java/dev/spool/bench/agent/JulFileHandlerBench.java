package dev.spool.bench.agent;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One JUL {@code FileHandler} record per operation (the handler flushes its file after every
 * record). The subclasses differ only in their fork: plain ({@link JulFileHandlerPlainBench}) or
 * with the agent ({@link JulFileHandlerAgentBench}), compared in the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public abstract class JulFileHandlerBench {

    private JulLogging jul;
    private long i;

    /** The logger's name, which also names the temp log file. */
    abstract String loggerName();

    @Setup(Level.Trial)
    public void open() throws IOException {
        jul = new JulLogging(loggerName());
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
