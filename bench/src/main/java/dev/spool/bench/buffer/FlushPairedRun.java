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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A paired, interleaved companion to {@link BufferFlushBench} for a noisy shared machine: each
 * round flushes N dirty files through the buffer and runs the encode + write + rename loop over
 * the same N files, back to back (alternating which goes first), so both see the same disk and CPU
 * weather; it reports the median of the per-round ratios. Not a JMH benchmark (JMH runs the two methods minutes apart).
 * Options: {@code --threads k} flush threads (default: the buffer's default), {@code --dir path}
 * where the files go (default: java.io.tmpdir; {@code /dev/shm} for tmpfs), {@code --rounds r}.
 * Flush throughput in files/s relative to the loop's is {@code 1 / (flush/loop)}.
 * <pre>java -cp bench/target/benchmarks.jar dev.spool.bench.buffer.FlushPairedRun [--threads 2] [--dir /dev/shm] 1 10 100</pre>
 */
public final class FlushPairedRun {
    private FlushPairedRun() {}

    public static void main(String[] args) throws IOException {
        int rounds = 300;
        int threads = BufferSettings.DEFAULT_FLUSH_THREADS;
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--dir" -> base = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> run(Integer.parseInt(args[i]), rounds, threads, base);
            }
        }
    }

    /** The anchor: encode, write a temp file, rename it over the target; nothing else. */
    static void loop(ObjectMapper json, Path dir, Map<String, Object>[] plain, Path[] paths) throws IOException {
        for (int f = 0; f < paths.length; f++) {
            byte[] bytes = json.writeValueAsBytes(plain[f]);
            Path tmp = dir.resolve("." + f + ".json.tmp" + ThreadLocalRandom.current().nextLong());
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, paths[f], StandardCopyOption.ATOMIC_MOVE);
        }
    }

    @SuppressWarnings("unchecked")
    static void run(int n, int rounds, int threads, Path base) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Path dir = Files.createTempDirectory(base, "spool-paired");
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0)
                .capacity(Math.max(BufferSettings.DEFAULT_CAPACITY, n)).flushThreads(threads).build());
        SyncedMap[] maps = new SyncedMap[n];
        Map<String, Object>[] plain = new Map[n];
        Path[] paths = new Path[n];
        Path[] loopPaths = new Path[n]; // the loop's own files: on the buffer's, every flush would be a conflict
        for (int f = 0; f < n; f++) {
            paths[f] = dir.resolve(f + ".json");
            Map<String, Object> m = new LinkedHashMap<>();
            for (int k = 0; k < 10; k++) m.put(Stores.key(k), k);
            loopPaths[f] = dir.resolve("loop-" + f + ".json");
            json.writeValue(paths[f].toFile(), m);
            json.writeValue(loopPaths[f].toFile(), m);
            plain[f] = m;
            maps[f] = SyncedMap.open(paths[f], buffer);
        }
        long[] flush = new long[rounds];
        long[] loop = new long[rounds];
        try (BufferScope scope = buffer.openScope()) {
            for (int r = 0; r < rounds; r++) {
                for (SyncedMap m : maps) m.put("key0", r);
                for (Map<String, Object> m : plain) m.put("key0", r);
                boolean flushFirst = r % 2 == 0; // alternate: whichever runs second pays for the first's writes
                long t0 = System.nanoTime();
                if (flushFirst) buffer.flush();
                else loop(json, dir, plain, loopPaths);
                long t1 = System.nanoTime();
                if (flushFirst) loop(json, dir, plain, loopPaths);
                else buffer.flush();
                long t2 = System.nanoTime();
                flush[r] = flushFirst ? t1 - t0 : t2 - t1;
                loop[r] = flushFirst ? t2 - t1 : t1 - t0;
            }
        }
        buffer.close();
        Stores.deleteTree(dir);
        int skip = rounds / 3; // warm-up
        double[] ratios = new double[rounds - skip];
        for (int i = skip; i < rounds; i++) ratios[i - skip] = (double) flush[i] / loop[i];
        long[] f = Arrays.copyOfRange(flush, skip, rounds);
        long[] l = Arrays.copyOfRange(loop, skip, rounds);
        Arrays.sort(ratios);
        Arrays.sort(f);
        Arrays.sort(l);
        int m = ratios.length;
        System.out.printf("threads=%d dir=%s N=%d: flush median %.0f us, loop median %.0f us, flush/loop per round: median %.2f (p25 %.2f, p75 %.2f), %d rounds%n",
                threads, base, n, f[m / 2] / 1e3, l[m / 2] / 1e3, ratios[m / 2], ratios[m / 4], ratios[3 * m / 4], m);
    }
}
