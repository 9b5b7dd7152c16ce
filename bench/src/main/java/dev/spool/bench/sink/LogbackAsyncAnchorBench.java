package dev.spool.bench.sink;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Anchor: Logback 1.5 {@code AsyncAppender} (discarding threshold 0, so INFO is never discarded;
 * blocking when full) over a {@code FileAppender} with its default immediate flush, pattern
 * {@code %msg%n}. 200,000 records of the 100-byte message from 1 or 2 threads, timed until the
 * file holds every record (byte count checked).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LogbackAsyncAnchorBench {
    @Param({"1", "2"})
    public int threads;

    private Path file;
    private LoggerContext ctx;
    private Logger log;

    @Setup
    public void start() throws Exception {
        file = Files.createTempFile("spool-bench-logback", ".log");
        ctx = new LoggerContext();
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter()); // a bare context has none
        ctx.start();
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%msg%n");
        enc.start();
        FileAppender<ILoggingEvent> fa = new FileAppender<>();
        fa.setContext(ctx);
        fa.setFile(file.toString());
        fa.setEncoder(enc);
        fa.start();
        AsyncAppender async = new AsyncAppender();
        async.setContext(ctx);
        async.setDiscardingThreshold(0);
        async.addAppender(fa);
        async.start();
        log = ctx.getLogger("bench");
        log.setAdditive(false);
        log.setLevel(Level.INFO);
        log.addAppender(async);
    }

    @TearDown
    public void stop() throws Exception {
        ctx.stop();
        Files.deleteIfExists(file);
    }

    @Benchmark
    public void logUntilOnDisk() throws Exception {
        long before = Files.size(file);
        AnchorFiles.onThreads(threads, JulAnchorBench.RECORDS, () -> log.info(JulAnchorBench.MESSAGE));
        AnchorFiles.awaitSize(file, before + (long) JulAnchorBench.RECORDS * 100, "logback async");
    }
}
