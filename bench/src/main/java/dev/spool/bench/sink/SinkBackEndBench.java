package dev.spool.bench.sink;

import dev.spool.events.EventCodec;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * measureme's table: 500,000 small events from 1, 2 or 4 producer threads, file vs mmap back
 * end; one invocation = emit all, close (everything on disk). The count is verified after each
 * invocation (a benchmark that does not count is not believed).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SinkBackEndBench {
    static final int EVENTS = 500_000;
    static final byte[] SMALL = EventCodec.encode(Map.of("step", 12345, "name", "evt", "v", 1.5));

    @Param({"FILE", "MMAP"})
    public SinkType type;

    @Param({"1", "2", "4"})
    public int threads;

    private Path file;

    @Setup(Level.Invocation)
    public void open() {
        file = BenchFiles.fresh("backend");
    }

    @TearDown(Level.Invocation)
    public void verifyAndDelete() throws Exception {
        try (EventReader r = EventReader.open(file)) {
            long n = r.scan();
            if (n != EVENTS || !r.sound()) {
                throw new IllegalStateException("counted " + n + " of " + EVENTS + " events, problems " + r.problems());
            }
        }
        BenchFiles.delete(file);
    }

    @Benchmark
    public long emitAndClose() throws InterruptedException {
        EventLog log = EventLog.open(file, SinkSettings.builder().type(type).build());
        Thread[] ts = new Thread[threads];
        int per = EVENTS / threads;
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                for (int i = 0; i < per; i++) {
                    log.emitEncoded(SMALL);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        log.close();
        return BenchFiles.size(file);
    }
}
