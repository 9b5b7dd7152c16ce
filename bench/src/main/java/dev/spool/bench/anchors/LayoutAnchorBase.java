package dev.spool.bench.anchors;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
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
 * The anchors with realistic layouts ({@link LayoutLines}): one invocation = {@code messages}
 * lines from {@code threads} threads into a fresh file, timed ({@link #toDisk}) until the logging
 * system is stopped and the file closed. The same invocation also measures the time until the
 * last logging call returned (the caller's cost; divided by {@code messages / threads} it is the
 * cost per event on each thread) and prints it as {@code [anchor-producers] ... ms=}: one fork per
 * row instead of two. Every invocation's tear-down counts the lines and checks that every line has the first
 * line's length; a lost or torn line fails the run (all contenders here are lossless). Subclasses
 * choose the contenders and their fork's JVM options ({@link LayoutAnchorBench} none,
 * {@link LayoutAnchorAgentBench} the agent, {@link LayoutAnchorLog4j2AsyncBench} Log4j2's all-async selector).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public abstract class LayoutAnchorBase {
    @Param({"1", "2"})
    public int threads;

    @Param({"1000000"})
    public int messages;

    @Param({"realistic", "caller"})
    public String layout;

    private Path file;
    private Contender running;

    /** The contender this fork runs. */
    protected abstract String contender();

    /** The row's name in the printed counts (the contender's, unless the fork's options change it). */
    protected String label() {
        return contender();
    }

    @Setup(Level.Invocation)
    public void open() throws Exception {
        if (messages % threads != 0) {
            throw new IllegalArgumentException(messages + " messages do not split over " + threads + " threads");
        }
        file = Files.createTempFile("spool-anchor-layout-" + contender() + "-", ".log");
        running = LayoutLines.open(contender(), layout, file);
    }

    private long producersNanos;

    @Benchmark
    public void toDisk() throws Exception {
        long start = System.nanoTime();
        Workload.produce(running, threads, messages);
        producersNanos = System.nanoTime() - start;
        running.stop();
    }

    @TearDown(Level.Invocation)
    public void count(BenchmarkParams params) throws Exception {
        running.stop();
        long lines = Workload.countLines(file);
        long size = Files.size(file);
        long lineBytes;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            lineBytes = first == null ? 0 : first.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        Files.delete(file);
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        System.out.printf("[anchor-count] contender=%s layout=%s threads=%d method=%s lines=%d expected=%d lineBytes=%d%n",
                label(), layout, threads, method, lines, messages, lineBytes);
        System.out.printf("[anchor-producers] contender=%s layout=%s threads=%d ms=%.1f ns-per-event-per-thread=%.0f%n",
                label(), layout, threads, producersNanos / 1e6, producersNanos / (double) (messages / threads));
        if (lines != messages || size != lines * lineBytes) {
            throw new IllegalStateException(contender() + " wrote " + lines + " of " + messages + " lines, " + size
                    + " bytes (expected lines of " + lineBytes + " bytes)");
        }
        running = null;
        System.gc();
    }
}
