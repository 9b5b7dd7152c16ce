package dev.spool.bench.sink;

import dev.spool.events.EventCodec;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.sink.SinkSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The bare producer path of a small pre-encoded event: a burst of 100,000 {@code emitEncoded}
 * calls into buffers large enough to hold them all (16 × 1 MiB), so the producer never waits for
 * the writer; opening and closing the log are outside the timed part. Count verified.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProducerBurstBench {
    static final int BURST = 100_000;
    static final byte[] SMALL = EventCodec.encode(Map.of("step", 12345, "name", "evt", "v", 1.5));
    private Path file;
    private EventLog log;

    @Setup(Level.Invocation)
    public void open() {
        file = BenchFiles.fresh("burst");
        log = EventLog.open(file, SinkSettings.builder().bufferBytes(1 << 20).buffers(16).build());
    }

    @TearDown(Level.Invocation)
    public void closeAndCount() throws Exception {
        log.close();
        try (EventReader r = EventReader.open(file)) {
            long n = r.scan();
            if (n != BURST || !r.sound()) {
                throw new IllegalStateException("counted " + n + " of " + BURST);
            }
        }
        BenchFiles.delete(file);
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public void preEncodedBurst() {
        for (int i = 0; i < BURST; i++) {
            log.emitEncoded(SMALL);
        }
    }
}
