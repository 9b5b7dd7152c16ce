package dev.spool.bench.sink;

import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
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
 * Julia's large payload: one {@code double[]} of 10^7 values (80 MB) until it is in the file.
 * {@code direct}: one event, written straight from the encoded buffer (record max raised so it
 * is not split); {@code staged}: split into 64 KiB parts, each copied through the sink buffers;
 * {@code rawStaging64k}: hand-written copy through a 64 KiB direct buffer and FileChannel.write;
 * {@code rawDirectBuffer}: FileChannel.write of a ready 80 MB direct buffer (the floor);
 * {@code rawCopyCrcWrite}: the least {@code direct} can do by its format (issue 35's floor): copy the
 * values into a reused 80 MB direct buffer, CRC32C it (the record header carries the CRC, so it is
 * known before the first byte is written), then one FileChannel.write, on the caller's thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LargePayloadBench {
    static final int N = 10_000_000;
    /** The sink's kill -9 journal (issue 33, on by default); the raw rows ignore it. */
    @Param({"true", "false"})
    public boolean journal;
    /**
     * Read every written file back (record count, CRCs, decoding) in the tear-down. {@code false}
     * keeps only the size check: the read-back decodes 10^7 numbers between two timed shots, and
     * on the 2-core VM the direct shot after it had 10-11 of 24 shots over 60 ms against 0-6
     * without it (issue 35), so {@code -p verify=false} measures the write without that noise.
     */
    @Param({"true"})
    public boolean verify;
    private final double[] values = new double[N];
    private ByteBuffer ready;
    private ByteBuffer snapshot;
    private Path file;
    private long expectRecords;

    @Setup
    public void fill() {
        for (int i = 0; i < N; i++) {
            values[i] = i * 0.25;
        }
        ready = ByteBuffer.allocateDirect(N * 8).order(ByteOrder.LITTLE_ENDIAN);
        ready.asDoubleBuffer().put(values);
        snapshot = ByteBuffer.allocateDirect(N * 8).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Setup(Level.Invocation)
    public void open() {
        file = BenchFiles.fresh("large");
        expectRecords = -1;
    }

    @TearDown(Level.Invocation)
    public void verifyAndDelete() throws Exception {
        long size = BenchFiles.size(file);
        if (size < N * 8L) {
            throw new IllegalStateException("only " + size + " bytes written");
        }
        if (verify && expectRecords >= 0) {
            try (EventReader r = EventReader.open(file)) {
                long n = r.scan();
                if (n != expectRecords || !r.sound()) {
                    throw new IllegalStateException("counted " + n + " records, problems " + r.problems());
                }
            }
        }
        BenchFiles.delete(file);
        System.gc(); // the check above decodes 10^7 numbers: collect them here, not in the next timed call
    }

    @Benchmark
    public void direct() {
        write(SinkSettings.builder().recordMax(128 << 20).journal(journal).build());
    }

    @Benchmark
    public void staged() {
        write(SinkSettings.builder().recordMax(64 << 10).directThreshold(1 << 30).journal(journal).build());
    }

    private void write(SinkSettings s) {
        try (EventLog log = EventLog.open(file, s)) {
            log.emit(values);
        }
        expectRecords = 1;
    }

    @Benchmark
    public void rawStaging64k() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(64 << 10).order(ByteOrder.LITTLE_ENDIAN);
            DoubleBuffer view = chunk.asDoubleBuffer();
            for (int off = 0; off < N; off += view.capacity()) {
                int n = Math.min(view.capacity(), N - off);
                view.clear();
                view.put(values, off, n);
                chunk.clear().limit(n * 8);
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
            }
        }
    }

    @Benchmark
    public void rawDirectBuffer() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ready.duplicate();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
    }

    @Benchmark
    public long rawCopyCrcWrite() throws IOException {
        long crc = copyAndCrc();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = snapshot.duplicate();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        return crc;
    }

    @Benchmark
    public long rawCopyCrcWrite1m() throws IOException {
        long crc = copyAndCrc();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = snapshot.duplicate();
            for (int end = b.limit(); b.position() < end; ) {
                b.limit(Math.min(end, b.position() + (1 << 20)));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
        }
        return crc;
    }

    /** The values copied into the reused snapshot, and its CRC32C (what a record header carries). */
    private long copyAndCrc() {
        snapshot.clear();
        snapshot.asDoubleBuffer().put(values);
        CRC32C crc = new CRC32C();
        crc.update(snapshot.duplicate());
        return crc.getValue();
    }
}
