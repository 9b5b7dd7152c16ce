package dev.spool.bench.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Anchor: Log4j2 2.25 all-async loggers (Disruptor 3.4.4, queue-full policy: wait, so lossless),
 * RandomAccessFile appender, pattern {@code %m%n}. 200,000 records of the 100-byte message from 1
 * or 2 threads, timed until the file holds every record (byte count checked).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(jvmArgsAppend = {
    "-Dlog4j2.contextSelector=org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
    "-Dlog4j2.statusLoggerLevel=OFF"})
public class Log4j2AsyncAnchorBench {
    @Param({"1", "2"})
    public int threads;

    private Path file;
    private LoggerContext ctx;
    private Logger log;

    @Setup
    public void start() throws Exception {
        file = Files.createTempFile("spool-bench-log4j2", ".log");
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setStatusLevel(Level.ERROR);
        b.add(b.newAppender("file", "RandomAccessFile")
                .addAttribute("fileName", file.toString())
                .addAttribute("immediateFlush", false)
                .addAttribute("append", true)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", "%m%n")));
        b.add(b.newRootLogger(Level.INFO).add(b.newAppenderRef("file")));
        ctx = Configurator.initialize(b.build());
        log = ctx.getLogger("bench");
    }

    @TearDown
    public void stop() throws Exception {
        Configurator.shutdown(ctx);
        Files.deleteIfExists(file);
    }

    @Benchmark
    public void logUntilOnDisk() throws Exception {
        long before = Files.size(file);
        AnchorFiles.onThreads(threads, JulAnchorBench.RECORDS, () -> log.info(JulAnchorBench.MESSAGE));
        AnchorFiles.awaitSize(file, before + (long) JulAnchorBench.RECORDS * 100, "log4j2 all-async");
    }
}
