package dev.spool.bench.buffer;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
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
 * The cost of getting buffered data to disk.
 * <ul>
 *   <li>{@code scopedSet1000ThenFlush}: open a scope, 1000 sets over {@code files} files, close it
 *       (one flush). Compare with {@code BufferOpsBench.set1000} of {@code writeThrough}.</li>
 *   <li>{@code flushDirty} vs {@code encodeWriteRenameLoop}: {@code dirty} files of 10 keys each
 *       made dirty in the invocation's setup (not measured), then the buffer's flush, against a
 *       tight loop doing only what any atomic save must do: Jackson-encode the same maps, write a
 *       temp file, rename it over the target.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BufferFlushBench {
    static final ObjectMapper JSON = new ObjectMapper();

    @Param({"1", "10", "100", "1000"})
    int files;

    Path dir;
    SharedBuffer buffer;
    SyncedMap[] maps;
    Map<String, Object>[] plain;
    Path[] paths;
    String[] keys;
    int tick;

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("spool-bench-flush");
        buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        int perFile = 1000 / files;
        maps = new SyncedMap[files];
        plain = new Map[files];
        paths = new Path[files];
        keys = new String[perFile];
        for (int k = 0; k < perFile; k++) keys[k] = Stores.key(k);
        for (int f = 0; f < files; f++) {
            paths[f] = dir.resolve(f + ".json");
            Map<String, Object> m = new LinkedHashMap<>();
            for (int k = 0; k < Math.max(10, perFile); k++) m.put(Stores.key(k), k);
            JSON.writeValue(paths[f].toFile(), m);
            plain[f] = m;
            maps[f] = SyncedMap.open(paths[f], buffer);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        buffer.close();
        Stores.deleteTree(dir);
    }

    @Benchmark
    public int scopedSet1000ThenFlush() {
        int v = tick++;
        int perFile = keys.length;
        try (BufferScope scope = buffer.openScope()) {
            for (int f = 0; f < files; f++) {
                SyncedMap m = maps[f];
                for (int k = 0; k < perFile; k++) m.put(keys[k], v);
            }
        }
        return v;
    }

    /** Open scope with every file dirty; the measured flush writes them all. */
    @State(Scope.Benchmark)
    public static class Dirty {
        BufferScope scope;

        @Setup(Level.Invocation)
        public void dirty(BufferFlushBench b) {
            if (scope == null) scope = b.buffer.openScope();
            int v = b.tick++;
            for (SyncedMap m : b.maps) m.put("key0", v);
            for (Map<String, Object> m : b.plain) m.put("key0", v);
        }

        @TearDown(Level.Trial)
        public void close() {
            if (scope != null) scope.close();
        }
    }

    @Benchmark
    public int flushDirty(Dirty d) {
        return buffer.flush();
    }

    @Benchmark
    public int encodeWriteRenameLoop(Dirty d) throws IOException {
        for (int f = 0; f < files; f++) {
            byte[] bytes = JSON.writeValueAsBytes(plain[f]);
            Path tmp = dir.resolve("." + f + ".json.tmp" + ThreadLocalRandom.current().nextLong());
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, paths[f], StandardCopyOption.ATOMIC_MOVE);
        }
        return files;
    }
}
