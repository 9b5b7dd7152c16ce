package dev.spool.bench.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The floor under {@link ProducerCostBench}'s sustained {@code preEncoded} figure: at a sustained
 * rate a lossless producer can go no faster than the writer drains, so this measures the writer's
 * own work per event with no producer at all: one 4 MiB buffer of small frames (the header plus
 * {@link ProducerCostBench#SMALL}) appended to a file with {@code FileChannel.write}, and, with
 * {@code journal=true}, the region of a mapped journal filled by a copy and zeroed afterwards as
 * {@code SinkJournal} does. Scores are ns per event, directly comparable with ProducerCostBench's.
 * <pre>java -jar bench/target/benchmarks.jar 'WriterFloorBench|ProducerCostBench.preEncoded' -f 1 -wi 3 -i 5 -w 1s -r 1s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriterFloorBench {
    /** The frame header's length (RecordDescriptor.HEADER_LENGTH, package-private in the runtime). */
    static final int HEADER = 32;
    static final int FRAME = HEADER + ProducerCostBench.SMALL.length;
    /** Events per buffer: about 4 MiB of ~100-byte frames, as ProducerCostBench's 4 MiB buffers. */
    static final int FRAMES = 40_000;
    static final int BUFFER = FRAMES * FRAME;

    @Param({"true", "false"})
    public boolean journal;
    private Path file;
    private Path journalFile;
    private FileChannel out;
    private MappedByteBuffer region;
    private final ByteBuffer frames = ByteBuffer.allocateDirect(BUFFER);
    private final ByteBuffer zeros = ByteBuffer.allocateDirect(64 << 10);

    @Setup
    public void open() throws IOException {
        for (int i = 0; i < FRAMES; i++) {
            frames.position(i * FRAME + HEADER);
            frames.put(ProducerCostBench.SMALL);
        }
        frames.clear();
        file = BenchFiles.fresh("floor");
        out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        if (journal) {
            journalFile = BenchFiles.fresh("floor-journal");
            try (FileChannel j = FileChannel.open(journalFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                for (long at = 0; at < BUFFER; ) at += j.write(zeros.duplicate(), at);
                region = j.map(FileChannel.MapMode.READ_WRITE, 0, BUFFER);
            }
        }
    }

    @TearDown
    public void close() throws IOException {
        out.close();
        BenchFiles.delete(file);
        BenchFiles.delete(journalFile);
    }

    /** One buffer's worth of events: (copied into the journal region,) written, (region zeroed). */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void writeBuffer() throws IOException {
        ByteBuffer src = frames.duplicate();
        if (journal) {
            region.put(0, frames, 0, BUFFER);
            src = region.duplicate().limit(BUFFER);
        }
        while (src.hasRemaining()) out.write(src);
        if (journal) {
            for (int off = 0; off < BUFFER; off += zeros.capacity()) {
                region.put(off, zeros, 0, Math.min(zeros.capacity(), BUFFER - off));
            }
        }
    }
}
