package dev.spool.bench.buffer;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.RealPaths;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Measures the heap a buffer holds per file beside the content itself (issue 16: what
 * {@code capacity.bytes} must count per entry): the live heap after full GCs, before and after
 * {@code n} one-byte snapshots of existing files (dirty entries), after their flush (stamp-only
 * entries), and the real-path cache's share (paths the buffer resolved). Run with a fixed heap and
 * the serial collector so "used after GC" is the live set:
 * <pre>java -Xmx1g -XX:+UseSerialGC -cp bench/target/benchmarks.jar dev.spool.bench.buffer.EntryOverheadRun [--dir /dev/shm] [n]</pre>
 */
public final class EntryOverheadRun {
    private EntryOverheadRun() {}

    public static void main(String[] args) throws Exception {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        int n = 20_000;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--dir")) base = Path.of(args[++i]);
            else n = Integer.parseInt(args[i]);
        }
        Path dir = Files.createTempDirectory(base, "spool-overhead");
        Path[] files = new Path[n];
        for (int s = 0; s < 256; s++) Files.createDirectories(dir.resolve("s" + s));
        for (int f = 0; f < n; f++) {
            // paths as a host names them: a fresh Path per call, the name as long as the grid's
            files[f] = dir.resolve("s" + (f % 256)).resolve("job" + f + ".json");
            Files.write(files[f], new byte[] {'1'});
        }
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0)
                .capacity(Integer.MAX_VALUE).build());
        byte[] one = {'2'};
        long empty = liveHeap();
        for (Path f : files) RealPaths.of(Path.of(f.toString()));
        long resolved = liveHeap();
        for (Path f : files) {
            if (!buffer.putSnapshot(Path.of(f.toString()), one)) throw new IOException("refused " + f);
        }
        long dirty = liveHeap();
        buffer.flush();
        long stamps = liveHeap();
        System.out.printf(Locale.ROOT, "n=%d: real-path cache %.0f B/file, dirty entry (1-byte content) %.0f B/file, "
                        + "stamp-only entry after flush %.0f B/file (entries=%d)%n", n, (resolved - empty) / (double) n,
                (dirty - resolved) / (double) n, (stamps - resolved) / (double) n, buffer.metrics().entries());
        buffer.close();
        for (Path f : files) Files.deleteIfExists(f);
        Stores.deleteTree(dir);
    }

    private static long liveHeap() throws InterruptedException {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, m.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
