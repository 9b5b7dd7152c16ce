package dev.spool.bench.sink;

import dev.spool.events.EventCodec;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * 100,000 events of 1 KiB (100 MB) until on disk, against raw sequential FileChannel writes of
 * the same bytes in 1 MiB chunks (target: at least 50% of raw), and with every record split
 * into two parts (target: at most 20% slower than unsplit). Counts verified.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DrainBench {
    static final int EVENTS = 100_000;
    /** The sink's kill -9 journal (issue 33, on by default); the raw row ignores it. */
    @Param({"true", "false"})
    public boolean journal;
    static final byte[] KIB = EventCodec.encode(new byte[1024 - 3]);
    private Path file;
    private long expect;

    @Setup(Level.Invocation)
    public void open() {
        file = BenchFiles.fresh("drain");
        expect = -1;
    }

    @TearDown(Level.Invocation)
    public void verifyAndDelete() throws Exception {
        if (BenchFiles.size(file) < (long) EVENTS * 1024) {
            throw new IllegalStateException("short file " + BenchFiles.size(file));
        }
        if (expect >= 0) {
            try (EventReader r = EventReader.open(file)) {
                long n = r.scan();
                if (n != expect || !r.sound()) {
                    throw new IllegalStateException("counted " + n + " of " + expect);
                }
            }
        }
        BenchFiles.delete(file);
    }

    @Benchmark
    public void events1k() {
        run(SinkSettings.builder().journal(journal).build());
    }

    @Benchmark
    public void events1kEverySplit() {
        run(SinkSettings.builder().recordMax(600).journal(journal).build());
    }

    private void run(SinkSettings s) {
        try (EventLog log = EventLog.open(file, s)) {
            for (int i = 0; i < EVENTS; i++) {
                log.emitEncoded(KIB);
            }
        }
        expect = EVENTS;
    }

    @Benchmark
    public void rawChannel1MiBChunks() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        long total = (long) EVENTS * (KIB.length + 32);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long done = 0; done < total; done += chunk.limit()) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), total - done));
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
            }
        }
    }
}
