package dev.spool.bench.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

/**
 * Issue 12's scientific-document workload: {@code files} documents rewritten every step for
 * {@code steps} steps, each read back every 5th step and checked. Modes:
 * <ul>
 *   <li>{@code files}: {@code writeValue(File)} / {@code readValue(File)} (run it plain, or under
 *       the agent: then the agent is what makes it fast);
 *   <li>{@code hashmap}: what a user would write instead: {@code writeValueAsBytes} into a
 *       {@code HashMap}, {@code readValue(byte[])} from it, no file I/O (its last bytes are written
 *       to the folder after the clock stops, so the folders can be compared).
 * </ul>
 * Runs {@code rounds} rounds into fresh sub-folders (the first is warm-up) and prints one line
 * {@code workload <mode> ms=<best measured round> rounds=<all rounds> cpu=<the workload thread's
 * CPU ms per round>} (CPU time is what a loaded machine distorts least). Usage:
 * {@code ScienceWorkload <files|hashmap> <dir> [files=100] [steps=400] [rounds=3]}.
 */
public final class ScienceWorkload {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        File dir = new File(args[1]);
        int files = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int steps = args.length > 3 ? Integer.parseInt(args[3]) : 400;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        ObjectMapper mapper = new ObjectMapper();
        StringBuilder all = new StringBuilder();
        StringBuilder cpu = new StringBuilder();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            File out = new File(dir, "round-" + r);
            out.mkdirs();
            long start = System.nanoTime();
            long cpuStart = threads.getCurrentThreadCpuTime();
            if (mode.equals("files")) {
                files(mapper, out, files, steps);
            } else {
                Map<String, byte[]> cache = hashmap(mapper, files, steps);
                long ms = (System.nanoTime() - start) / 1_000_000;
                cpu.append((threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000).append(' ');
                for (Map.Entry<String, byte[]> e : cache.entrySet()) {
                    Files.write(new File(out, e.getKey()).toPath(), e.getValue());
                }
                all.append(ms).append(' ');
                if (r > 0) best = Math.min(best, ms);
                continue;
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            cpu.append((threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000).append(' ');
            all.append(ms).append(' ');
            if (r > 0) best = Math.min(best, ms);
        }
        System.out.println("workload " + mode + " ms=" + (rounds > 1 ? best : all.toString().trim()) + " rounds=" + all.toString().trim()
                + " cpu=" + cpu.toString().trim());
    }

    private static void files(ObjectMapper mapper, File dir, int files, int steps) throws IOException {
        for (int step = 0; step < steps; step++) {
            for (int f = 0; f < files; f++) {
                File file = new File(dir, "doc-" + f + ".json");
                mapper.writeValue(file, Docs.science(f, step));
                if (step % 5 == 4) {
                    check(mapper.readValue(file, Map.class), step, file.getName());
                }
            }
        }
    }

    private static Map<String, byte[]> hashmap(ObjectMapper mapper, int files, int steps) throws IOException {
        Map<String, byte[]> cache = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            for (int f = 0; f < files; f++) {
                String name = "doc-" + f + ".json";
                cache.put(name, mapper.writeValueAsBytes(Docs.science(f, step)));
                if (step % 5 == 4) {
                    check(mapper.readValue(cache.get(name), Map.class), step, name);
                }
            }
        }
        return cache;
    }

    private static void check(Map<?, ?> doc, int step, String name) {
        if (((Number) doc.get("step")).intValue() != step) {
            throw new IllegalStateException(name + " read back step " + doc.get("step") + ", expected " + step);
        }
    }
}
