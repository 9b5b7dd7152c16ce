package dev.spool.bench.sink;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * The sink's two hand-offs, one offer and one poll each: JCTools' {@code sun.misc.Unsafe}
 * variants ({@code unsafe}), its field-updater variants ({@code atomic}, the sink's from issue 18)
 * and {@code ConcurrentLinkedQueue} ({@code linked}, the sink's since issue 11: one CAS per offer,
 * so a producer dying inside it cannot wedge the writer), side by side in one run: the writer's
 * queue and the free-buffer queue. The sink makes one of each per sealed buffer (a few per
 * second), so this is the whole of what the swaps can cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QueueHandOffBench {
    @Param({"unsafe", "atomic", "linked"})
    public String variant;
    private final Object item = new Object();
    private Queue<Object> writer;
    private Queue<Object> free;

    @Setup
    public void create() {
        if (variant.equals("linked")) {
            writer = new ConcurrentLinkedQueue<>();
            free = new ConcurrentLinkedQueue<>();
            return;
        }
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
