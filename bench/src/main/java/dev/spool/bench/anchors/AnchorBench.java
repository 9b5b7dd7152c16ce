package dev.spool.bench.anchors;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * One invocation = {@code messages} lines from {@code threads} threads into a fresh file, opened
 * in an untimed set-up. {@link #producers} is timed until the last logging call has returned (the
 * logging system is stopped in the untimed tear-down); {@link #toDisk} until the logging system is
 * stopped and the file closed. The tear-down counts the lines (and checks the size) of every
 * invocation, prints {@code [anchor-count] ...}, and fails the run when a lossless contender lost
 * a line. Subclasses choose the contenders and their fork's JVM options.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 4)
public abstract class AnchorBench {
    @Param({"1", "2"})
    public int threads;

    @Param({"1000000"})
    public int messages;

    private Path file;
    private Contender contender;

    /** The contender this invocation runs (a subclass's {@code contender} parameter). */
    protected abstract String contender();

    @Setup(Level.Invocation)
    public void open() throws Exception {
        if (messages % threads != 0) {
            throw new IllegalArgumentException(messages + " messages do not split over " + threads + " threads");
        }
        file = Files.createTempFile("spool-anchor-" + contender() + "-", ".log");
        contender = Contender.open(contender(), file);
    }

    @Benchmark
    public void producers() throws InterruptedException {
        Workload.produce(contender, threads, messages);
    }

    @Benchmark
    public void toDisk() throws Exception {
        Workload.produce(contender, threads, messages);
        contender.stop();
    }

    @TearDown(Level.Invocation)
    public void count(BenchmarkParams params) throws Exception {
        contender.stop();
        long[] out = contender.output(file);
        long lines = out[0];
        long size = out[1];
        Files.delete(file);
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        System.out.printf("[anchor-count] contender=%s threads=%d method=%s lines=%d expected=%d lost=%d%n",
                contender(), threads, method, lines, messages, messages - lines);
        if (Contender.lossless(contender()) && (lines != messages || size != lines * contender.lineBytes())) {
            throw new IllegalStateException(contender() + " wrote " + lines + " of " + messages + " lines, "
                    + size + " bytes (expected " + messages * contender.lineBytes() + ")");
        }
        contender = null;
        System.gc(); // the next invocation does not pay for this one's garbage
    }
}
