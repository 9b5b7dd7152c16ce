package dev.spool.bench.grid;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The buffer grid (issue 16): files × rewrites per file, each cell run as two whole processes of
 * {@link GridHost}, plain and under {@code -javaagent}, back to back, alternating which goes first
 * (so both see the same machine weather). App time is the host's own loop (app CPU ratio: the CPU time of the loop's thread, which a loaded machine distorts less); wall time is the whole
 * process from fork to exit (JVM start, agent start, the exit flush). Prints a Markdown table.
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.spool.bench.grid.GridRun \
 *      [--agent agent/target/spool-agent.jar] [--dir /tmp] [--reps 1] [--full] \
 *      [--cells 2000x5,10000x5] [--agent-args spool.buffer.flush.threads=4] [--jvm -Xmx1g]
 * </pre>
 * Without {@code --cells} the grid is 100; 1,000; 10,000; 100,000 files × 1, 5, 50 rewrites, less
 * the 100,000 × 50 cell (5 million writes: add {@code --full}; ~20 min on a quiet 2-core machine,
 * plain ~200 us per write; 20,000 × 50 is the largest × 50 cell within ~5 min). Each cell's duration
 * goes to stderr.
 */
public final class GridRun {
    private static final Pattern APP = Pattern.compile("appMillis=(\\d+) appCpuMillis=(\\d+) hwmKiB=(-?\\d+)");

    private GridRun() {}

    record Cell(int files, int rewrites) {}

    record Result(long appMillis, long appCpuMillis, long wallMillis, long hwmKiB) {}

    public static void main(String[] args) throws Exception {
        String agent = "agent/target/spool-agent.jar";
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        int reps = 1;
        boolean full = false;
        String cells = null;
        String agentArgs = "";
        List<String> jvm = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--agent" -> agent = args[++i];
                case "--dir" -> base = Path.of(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--full" -> full = true;
                case "--cells" -> cells = args[++i];
                case "--agent-args" -> agentArgs = args[++i];
                case "--jvm" -> jvm.add(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        List<Cell> grid = new ArrayList<>();
        if (cells != null) {
            for (String c : cells.split(",")) {
                String[] fr = c.trim().split("x");
                grid.add(new Cell(Integer.parseInt(fr[0]), Integer.parseInt(fr[1])));
            }
        } else {
            for (int files : new int[] {100, 1_000, 10_000, 100_000}) {
                for (int rewrites : new int[] {1, 5, 50}) {
                    if (full || (long) files * rewrites <= 1_000_000) grid.add(new Cell(files, rewrites));
                }
            }
        }
        String classPath = System.getProperty("java.class.path");
        String javaagent = "-javaagent:" + agent + (agentArgs.isEmpty() ? "" : "=" + agentArgs);
        System.out.printf(Locale.ROOT, "load average at start: %s%n", loadAverage());
        System.out.println("| files × rewrites | plain app ms | agent app ms | app ratio | plain wall ms | agent wall ms "
                + "| wall ratio | plain peak RSS MiB | agent peak RSS MiB | app CPU ratio |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (Cell c : grid) {
            for (int r = 0; r < reps; r++) {
                long cellStart = System.nanoTime();
                Result plain;
                Result withAgent;
                if ((r + grid.indexOf(c)) % 2 == 0) {
                    plain = run(jvm, null, classPath, base, c);
                    withAgent = run(jvm, javaagent, classPath, base, c);
                } else {
                    withAgent = run(jvm, javaagent, classPath, base, c);
                    plain = run(jvm, null, classPath, base, c);
                }
                System.out.printf(Locale.ROOT, "| %,d × %d | %d | %d | %.2f | %d | %d | %.2f | %d | %d | %.2f |%n", c.files,
                        c.rewrites, plain.appMillis, withAgent.appMillis,
                        (double) withAgent.appMillis / Math.max(1, plain.appMillis), plain.wallMillis,
                        withAgent.wallMillis, (double) withAgent.wallMillis / Math.max(1, plain.wallMillis),
                        plain.hwmKiB / 1024, withAgent.hwmKiB / 1024,
                        (double) withAgent.appCpuMillis / Math.max(1, plain.appCpuMillis));
                System.err.printf(Locale.ROOT, "cell %dx%d took %d s (both processes), load %s%n", c.files, c.rewrites,
                        (System.nanoTime() - cellStart) / 1_000_000_000L, loadAverage());
            }
        }
        System.out.printf(Locale.ROOT, "load average at end: %s%n", loadAverage());
    }

    static Result run(List<String> jvm, String javaagent, String classPath, Path base, Cell c)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(base, "spool-grid");
        try {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvm);
            if (javaagent != null) command.add(javaagent);
            command.addAll(List.of("-cp", classPath, GridHost.class.getName(), dir.resolve("w").toString(),
                    String.valueOf(c.files), String.valueOf(c.rewrites)));
            Path out = Files.createTempFile("spool-grid", ".out");
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            int exit = p.waitFor();
            long wall = (System.nanoTime() - start) / 1_000_000;
            String text = Files.readString(out);
            Files.delete(out);
            Matcher m = APP.matcher(text);
            if (exit != 0 || !m.find()) throw new IllegalStateException("host failed (exit " + exit + "): " + text);
            return new Result(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), wall, Long.parseLong(m.group(3)));
        } finally {
            deleteTree(dir);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
