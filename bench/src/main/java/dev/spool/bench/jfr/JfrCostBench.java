package dev.spool.bench.jfr;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.internal.jfr.SpoolJfr;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What Spool's JFR emission points cost when no recording runs, with the switch
 * ({@code spool.jfr.enabled}) on (the default) and off; each {@code jfr} value runs in its own fork.
 * <ul>
 *   <li>{@code sinkBatchPoint}, {@code flushPoint}: the begin/commit pairs the sink's writer runs per
 *       batch and the buffer per flush; {@code conflictPoint}, {@code writeErrorPoint},
 *       {@code fallbackPoint}: the single calls of the rare paths. {@code baseline}: an empty call.</li>
 *   <li>{@code flushOneFile}: the whole path around the flush events: one snapshot put into a
 *       buffer and flushed to a file (temp + rename) in {@code /dev/shm} when there is one.</li>
 * </ul>
 * Nothing here runs on the host's per-call path: see {@code NonMatchingHookBench} and
 * {@code NonMatchingHookJfrOffBench} for that call, with the switch on and off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class JfrCostBench {

    @Param({"true", "false"})
    boolean jfr;

    private Path dir;
    private Path file;
    private SharedBuffer buffer;
    private final byte[] content = "{\"step\":1}".getBytes(StandardCharsets.UTF_8);
    private final String path = "/var/log/app/events.spool";

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SpoolJfr.setEnabled(jfr);
        Path shm = Path.of("/dev/shm");
        dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "spool-jfr-bench")
                : Files.createTempDirectory("spool-jfr-bench");
        file = dir.resolve("doc.json");
        Files.write(file, content);
        buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        buffer.close();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    @Benchmark
    public boolean baseline() {
        return SpoolJfr.enabled();
    }

    @Benchmark
    public Object sinkBatchPoint() {
        Object token = SpoolJfr.beginSinkWrite();
        SpoolJfr.sinkWritten(token, path, 16, 1024);
        return token;
    }

    @Benchmark
    public Object flushPoint() {
        Object token = SpoolJfr.beginBufferFlush(4096);
        SpoolJfr.bufferFlushed(token, false, 1, 0, 0);
        return token;
    }

    @Benchmark
    public void conflictPoint() {
        SpoolJfr.conflict(file, file);
    }

    @Benchmark
    public void writeErrorPoint() {
        SpoolJfr.writeError("sink", path, "disk full");
    }

    @Benchmark
    public void fallbackPoint() {
        SpoolJfr.fallback("encode failed");
    }

    @Benchmark
    public int flushOneFile() throws IOException {
        buffer.putSnapshot(file, content);
        return buffer.flush();
    }
}
