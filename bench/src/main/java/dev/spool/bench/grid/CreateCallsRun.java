package dev.spool.bench.grid;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What each system call of an atomic create costs from Java 17 (issue 16, the write-once floor):
 * the bare temp + rename, plus an {@code lstat} of the missing name (the JDK throws a
 * {@link NoSuchFileException}), plus an {@code access(F_OK)} instead (no exception), a hard link +
 * unlink instead of the rename (never replaces a name), and {@code Files.move} without
 * {@code ATOMIC_MOVE} (the JDK's own check of the target). New files in 64 known folders, one
 * round per variant in turn, rotating the order; CPU time of the creating thread per file, the
 * median over rounds and the median per-round difference to the bare create (with quartiles).
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.spool.bench.grid.CreateCallsRun [--dir /dev/shm] [--files 500] [--rounds 48]
 * </pre>
 */
public final class CreateCallsRun {
    private static final String[] NAMES = {"plain", "temp+rename", "lstat(throws)+rename", "access+rename",
        "access+link+unlink", "link+unlink", "Files.move(no ATOMIC_MOVE)"};

    private CreateCallsRun() {}

    public static void main(String[] args) throws Exception {
        Path base = Path.of("/dev/shm");
        int files = 500;
        int rounds = 48;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> base = Path.of(args[++i]);
                case "--files" -> files = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        byte[] doc = new byte[800];
        Arrays.fill(doc, (byte) 'x');
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int n = NAMES.length;
        double[][] cpu = new double[n][rounds];
        Path root = Files.createTempDirectory(base, "spool-calls");
        try {
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < n; k++) {
                    int v = (k + r) % n;
                    Path dir = root.resolve("r" + r + "v" + v);
                    Path[] paths = new Path[files];
                    for (int s = 0; s < 64; s++) Files.createDirectories(dir.resolve("s" + s));
                    for (int f = 0; f < files; f++) paths[f] = dir.resolve("s" + (f % 64)).resolve("job" + f + ".json");
                    long c0 = threads.getCurrentThreadCpuTime();
                    for (Path p : paths) create(v, p, doc);
                    cpu[v][r] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / files;
                }
                if (r % 8 == 7) GridRun.deleteTree(root); // keep the folders small
                Files.createDirectories(root);
            }
        } finally {
            GridRun.deleteTree(root);
        }
        int skip = rounds / 4;
        System.out.printf(Locale.ROOT, "new files, %d per round, rounds %d (first %d not counted), dir %s, load %s%n",
                files, rounds, skip, base, Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println("| variant | CPU µs/file | CPU / plain | minus temp+rename µs (p25..p75) |");
        System.out.println("|---|---|---|---|");
        for (int v = 0; v < n; v++) {
            double[] ratio = new double[rounds - skip];
            double[] extra = new double[rounds - skip];
            for (int r = skip; r < rounds; r++) {
                ratio[r - skip] = cpu[v][r] / cpu[0][r];
                extra[r - skip] = cpu[v][r] - cpu[1][r];
            }
            Arrays.sort(ratio);
            Arrays.sort(extra);
            double[] own = Arrays.copyOfRange(cpu[v], skip, rounds);
            Arrays.sort(own);
            int m = extra.length / 2;
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.2f | %.1f (%.1f..%.1f) |%n", NAMES[v], own[own.length / 2],
                    ratio[m], extra[m], extra[extra.length / 4], extra[3 * extra.length / 4]);
        }
    }

    private static void create(int v, Path f, byte[] doc) throws IOException {
        if (v == 0) {
            try (OutputStream out = new FileOutputStream(f.toFile())) {
                out.write(doc);
            }
            return;
        }
        if (v == 2) {
            try {
                Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                throw new IOException("exists: " + f);
            } catch (NoSuchFileException expected) {
                // the new name: what an lstat of it costs from Java
            }
        }
        if ((v == 3 || v == 4) && Files.exists(f)) throw new IOException("exists: " + f);
        Path tmp = f.resolveSibling("." + f.getFileName() + ".spool-tmp-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(doc));
        }
        switch (v) {
            case 4, 5 -> {
                Files.createLink(f, tmp);
                if (!tmp.toFile().delete()) throw new IOException("cannot unlink " + tmp);
            }
            case 6 -> Files.move(tmp, f);
            default -> Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
