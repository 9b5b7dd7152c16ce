package dev.spool.bench.sink;

import java.util.Queue;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sink's two hand-offs, one offer and one poll each, in JCTools' {@code sun.misc.Unsafe}
 * variants ({@code unsafe}) against the field-updater variants the sink uses since issue 18
 * ({@code atomic}), side by side in one run: the writer's queue (MPSC unbounded) and the
 * free-buffer queue (MPMC, 8 slots). The sink makes one of each per sealed buffer (a few per
 * second), so this is the whole of what the swap can cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueueHandOffBench {
    @Param({"unsafe", "atomic"})
    public String variant;
    private final Object item = new Object();
    private Queue<Object> writer;
    private Queue<Object> free;

    @Setup
    public void create() {
        boolean atomic = variant.equals("atomic");
        writer = atomic ? new MpscUnboundedAtomicArrayQueue<>(64) : new MpscUnboundedArrayQueue<>(64);
        free = atomic ? new MpmcAtomicArrayQueue<>(8) : new MpmcArrayQueue<>(8);
    }

    @Benchmark
    public Object writerQueue() {
        writer.offer(item);
        return writer.poll();
    }

    @Benchmark
    public Object freeQueue() {
        free.offer(item);
        return free.poll();
    }
}
