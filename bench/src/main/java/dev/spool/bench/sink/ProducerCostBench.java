package dev.spool.bench.sink;

import dev.spool.events.EventCodec;
import dev.spool.events.EventLog;
import dev.spool.sink.SinkSettings;
import java.nio.file.Path;
import java.util.Map;
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
 * Cost on the producer thread of one small event: pre-encoded ({@code emitEncoded}, target
 * at most 100 ns) and encoded from a map ({@code emit}). The writer drains in the background;
 * at tear-down the count is checked against the number of calls.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProducerCostBench {
    static final byte[] SMALL = EventCodec.encode(Map.of("step", 12345, "name", "evt", "v", 1.5));
    private final Map<String, Object> map = Map.of("step", 12345, "name", "evt", "v", 1.5);
    /** {@code spool.sink.journal} (issue 33): buffers in a mapped journal, or in memory as before. */
    @Param({"true", "false"})
    public boolean journal;
    private Path file;
    private EventLog log;

    @Setup
    public void open() {
        file = BenchFiles.fresh("cost");
        log = EventLog.open(file, SinkSettings.builder().bufferBytes(4 << 20).buffers(8).journal(journal).build());
    }

    @TearDown
    public void close() {
        log.close();
        long dropped = log.metrics().dropped();
        if (dropped != 0 || log.metrics().errors() != 0) {
            throw new IllegalStateException("dropped " + dropped + ", errors " + log.metrics().errors());
        }
        System.out.println("[count] events written " + log.metrics().eventsWritten());
        BenchFiles.delete(file);
    }

    @Benchmark
    public void preEncoded() {
        log.emitEncoded(SMALL);
    }

    @Benchmark
    public void fromMap() {
        log.emit(map);
    }
}
