package dev.spool.bench.buffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * signac's table: 1000 operations spread over {@code files} files (1x1000, 10x100, 100x10,
 * 1000x1), set and get, for each store. One invocation = 1000 operations; scores are time per
 * 1000 operations. {@code sharedObject} runs inside an open scope, so its sets do no I/O here
 * (the flush is measured by {@link BufferFlushBench}). {@code lockedHashMap} is the floor of a
 * per-file monitor: a HashMap under its own lock. Shared object against its floors, alternating:
 * {@code scripts/synced-get.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BufferOpsBench {
    @Param({"1", "10", "100", "1000"})
    int files;

    @Param({"writeThrough", "serializedBuffer", "sharedObject", "hashMap", "lockedHashMap"})
    String impl;

    Path dir;
    Stores.Store store;
    String[] keys;
    int perFile;
    int tick;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        perFile = 1000 / files;
        dir = Files.createTempDirectory("spool-bench-ops");
        store = Stores.create(impl, dir, files, perFile);
        keys = new String[perFile];
        for (int k = 0; k < perFile; k++) keys[k] = Stores.key(k);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        Stores.deleteTree(dir);
    }

    @Benchmark
    public void set1000() {
        int v = tick++;
        for (int f = 0; f < files; f++) {
            for (int k = 0; k < perFile; k++) store.set(f, keys[k], v);
        }
    }

    @Benchmark
    public void get1000(Blackhole bh) {
        for (int f = 0; f < files; f++) {
            for (int k = 0; k < perFile; k++) bh.consume(store.get(f, keys[k]));
        }
    }
}
