package dev.spool.bench.sink;

import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * Julia's other two rows: one event holding 10^5 short random strings, and 10^4 tiny events;
 * each until closed (on disk), the record count verified.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ManySmallBench {
    private final List<String> strings = new ArrayList<>();
    private Path file;
    private long expect;

    @Setup
    public void strings() {
        Random r = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            char[] c = new char[8];
            for (int j = 0; j < c.length; j++) {
                c[j] = (char) ('a' + r.nextInt(26));
            }
            strings.add(new String(c));
        }
    }

    @Setup(Level.Invocation)
    public void open() {
        file = BenchFiles.fresh("small");
    }

    @TearDown(Level.Invocation)
    public void verifyAndDelete() throws Exception {
        try (EventReader r = EventReader.open(file)) {
            long n = r.scan();
            if (n != expect || !r.sound()) {
                throw new IllegalStateException("counted " + n + " of " + expect + ", problems " + r.problems());
            }
        }
        BenchFiles.delete(file);
    }

    @Benchmark
    public void shortStrings100k() {
        try (EventLog log = EventLog.open(file)) {
            log.emit(strings);
        }
        expect = 1;
    }

    @Benchmark
    public void tinyEvents10k() {
        Map<String, Object> e = new java.util.HashMap<>();
        try (EventLog log = EventLog.open(file)) {
            for (int i = 0; i < 10_000; i++) {
                e.put("i", i);
                log.emit(e);
            }
        }
        expect = 10_000;
    }
}
