package dev.spool.bench.grid;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The floor of a write-once workload (issue 16 item 5): what creating a new file costs, plain
 * (Jackson's {@code FileOutputStream}: open with {@code O_CREAT|O_TRUNC}, write, close) against
 * the bare atomic create (temp file with {@code O_EXCL}, write, close, rename), the same with an
 * own modification time set on the temp file (open, futimens, close), and Spool's
 * {@code putSnapshot} of a new file (the buffer's whole path). Every variant writes the same
 * pre-encoded GridHost documents (~0.8 KB; encoding is the same in every variant and left out)
 * into a fresh set of 256 folders, one round per variant in turn, rotating the order, so all see
 * the same disk and CPU weather. With {@code --rewrite} the files exist already (written before the
 * clock starts): plain truncates and rewrites in place, the atomic variants replace them (the
 * floor of a flush; Spool's variant then buffers, so it is left out). Prints per variant the median over rounds of wall and CPU time
 * per file, and each as a ratio to plain's in the same rounds.
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.spool.bench.grid.CreateFloorRun [--dir /tmp] [--files 2000] [--rounds 12] [--rewrite] [--only 3]
 * </pre>
 */
public final class CreateFloorRun {
    private static final String[] NAMES = {"plain", "temp+rename", "temp+mtime+rename", "spool putSnapshot"};

    private CreateFloorRun() {}

    public static void main(String[] args) throws Exception {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        int files = 2000;
        int rounds = 12;
        int only = -1;
        boolean rewrite = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> base = Path.of(args[++i]);
                case "--files" -> files = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--rewrite" -> rewrite = true; // replace existing files (the flush's floor) instead of creating
                case "--only" -> only = Integer.parseInt(args[++i]); // one variant (0-3): for strace -c
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        ObjectMapper mapper = new ObjectMapper();
        byte[][] docs = new byte[files][];
        for (int f = 0; f < files; f++) docs[f] = mapper.writeValueAsBytes(GridHost.document(f, 0));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().build());
        int n = NAMES.length;
        double[][] wall = new double[n][rounds];
        double[][] cpu = new double[n][rounds];
        Path root = Files.createTempDirectory(base, "spool-floor");
        try {
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < n; k++) {
                    int v = (k + r) % n;
                    if ((only >= 0 && v != only && v != 0) || (rewrite && v == 3)) continue;
                    Path dir = root.resolve("r" + r + "v" + v);
                    Path[] paths = paths(dir, files);
                    if (rewrite) {
                        for (int f = 0; f < files; f++) Files.write(paths[f], docs[(f + 1) % files]);
                    }
                    long c0 = threads.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    for (int f = 0; f < files; f++) create(v, paths[f], docs[f], buffer);
                    wall[v][r] = (System.nanoTime() - t0) / 1e3 / files;
                    cpu[v][r] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / files;
                }
                buffer.flush(); // the new files' entries leave at the next passes, as in a host
            }
        } finally {
            buffer.close();
            GridRun.deleteTree(root);
        }
        int skip = rounds / 4; // warm-up
        System.out.printf(Locale.ROOT, "%s, files per round %d, rounds %d (first %d not counted), dir %s, load %s%n",
                rewrite ? "rewriting existing files" : "new files", files, rounds, skip, base, loadAverage());
        System.out.println("| variant | wall µs/file | wall / plain | CPU µs/file | CPU / plain |");
        System.out.println("|---|---|---|---|---|");
        for (int v = 0; v < n; v++) {
            if (wall[v][rounds - 1] == 0) continue; // not run (--only, --rewrite)
            double[] wr = new double[rounds - skip];
            double[] cr = new double[rounds - skip];
            for (int r = skip; r < rounds; r++) {
                wr[r - skip] = wall[v][r] / wall[0][r];
                cr[r - skip] = cpu[v][r] / cpu[0][r];
            }
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.2f | %.1f | %.2f |%n", NAMES[v],
                    median(Arrays.copyOfRange(wall[v], skip, rounds)), median(wr),
                    median(Arrays.copyOfRange(cpu[v], skip, rounds)), median(cr));
        }
    }

    private static Path[] paths(Path dir, int files) throws IOException {
        int shards = Math.min(GridHost.SHARDS, files);
        for (int s = 0; s < shards; s++) Files.createDirectories(dir.resolve("s" + s));
        Path[] p = new Path[files];
        for (int f = 0; f < files; f++) p[f] = dir.resolve("s" + (f % shards)).resolve("job" + f + ".json");
        return p;
    }

    private static void create(int variant, Path file, byte[] doc, SharedBuffer buffer) throws IOException {
        switch (variant) {
            case 0 -> {
                try (OutputStream out = new FileOutputStream(file.toFile())) {
                    out.write(doc);
                }
            }
            case 1, 2 -> {
                Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp" + ThreadLocalRandom.current().nextLong());
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(doc));
                }
                if (variant == 2) {
                    FileTime t = FileTime.from(System.currentTimeMillis() * 1000 + 7, TimeUnit.MICROSECONDS);
                    Files.getFileAttributeView(tmp, BasicFileAttributeView.class).setTimes(t, t, null);
                }
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            }
            default -> {
                if (!buffer.putSnapshot(file, doc)) throw new IOException("refused: " + file);
            }
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
