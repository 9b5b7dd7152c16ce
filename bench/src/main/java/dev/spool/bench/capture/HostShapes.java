package dev.spool.bench.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 35's two Jackson shapes, written as a new user would (not Spool's own science document):
 * <ul>
 *   <li>{@code docs}: {@code files} documents (an id, a 3-entry parameter map, a 32-double state
 *       array, a 3-entry statistics map) rewritten every step with {@code writeValue(File)} and
 *       read back with {@code readValue(File, Map.class)} every 5th step; issue 35 uses 100 × 400;
 *   <li>{@code lists}: {@code writeValue(File)} rewrites of {@code files} small maps with nested
 *       lists, round-robin; issue 35 uses 100 files × 100 rewrites (10,000 writes), never read back.
 * </ul>
 * Sinks: {@code files} (plain Jackson to files: run it plain, or under the agent) and
 * {@code hashmap}, the floor: {@code writeValueAsBytes} kept in a {@code HashMap} and
 * {@code readValue(byte[], Map.class)} from it, no file I/O (its last bytes are written to the
 * folder after the clock stops, so folders can be compared byte for byte). Two lower bounds of what
 * any exact write-behind leaves on the host's thread (issue 35's measured floors): {@code build}
 * keeps each document object itself (the host's own work: building it, and the check of what is
 * read back, on the object), and {@code tokens} keeps a Jackson {@code TokenBuffer} of it (a
 * snapshot, as capture must take one: the host may change the value after the call) and reads back
 * from those tokens. Their last documents are written to the folder after the clock stops too.
 * Runs {@code rounds} rounds into fresh sub-folders (the first is warm-up) and prints one line
 * {@code workload <shape>/<sink> ms=<best measured round> rounds=<all> cpu=<workload thread CPU ms per round>}.
 * Driven by {@code scripts/host-shapes.sh}, which alternates plain, agent and floor.
 * <pre>java -cp bench/target/benchmarks.jar dev.spool.bench.capture.HostShapes docs files /tmp/d 100 400 3</pre>
 */
public final class HostShapes {
    private HostShapes() {}

    public static void main(String[] args) throws Exception {
        String shape = args[0];
        String sink = args[1];
        File dir = new File(args[2]);
        int files = Integer.parseInt(args[3]);
        int steps = Integer.parseInt(args[4]);
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 3;
        if (!shape.equals("docs") && !shape.equals("lists")) throw new IllegalArgumentException("shape: docs or lists, not " + shape);
        if (!List.of("files", "hashmap", "build", "tokens").contains(sink)) {
            throw new IllegalArgumentException("sink: files, hashmap, build or tokens, not " + sink);
        }
        boolean readBack = shape.equals("docs");
        ObjectMapper mapper = new ObjectMapper();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        StringBuilder all = new StringBuilder();
        StringBuilder cpu = new StringBuilder();
        long best = Long.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            File out = new File(dir, "round-" + r);
            out.mkdirs();
            File[] paths = new File[files];
            for (int f = 0; f < files; f++) paths[f] = new File(out, shape + "-" + f + ".json");
            long start = System.nanoTime();
            long cpuStart = threads.getCurrentThreadCpuTime();
            Map<String, byte[]> cache = null;
            Map<String, Object> kept = null;
            switch (sink) {
                case "files" -> toFiles(mapper, shape, paths, steps, readBack);
                case "hashmap" -> cache = toHashMap(mapper, shape, paths, steps, readBack);
                default -> kept = keep(mapper, sink.equals("tokens"), shape, paths, steps, readBack);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            cpu.append((threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000).append(' ');
            all.append(ms).append(' ');
            if (r > 0 || rounds == 1) best = Math.min(best, ms);
            if (cache != null) {
                for (Map.Entry<String, byte[]> e : cache.entrySet()) Files.write(new File(out, e.getKey()).toPath(), e.getValue());
            }
            if (kept != null) {
                for (Map.Entry<String, Object> e : kept.entrySet()) { // a TokenBuffer serializes its tokens
                    Files.write(new File(out, e.getKey()).toPath(), mapper.writeValueAsBytes(e.getValue()));
                }
            }
        }
        System.out.println("workload " + shape + "/" + sink + " ms=" + best + " rounds=" + all.toString().trim()
                + " cpu=" + cpu.toString().trim());
    }

    private static void toFiles(ObjectMapper mapper, String shape, File[] paths, int steps, boolean readBack) throws IOException {
        for (int step = 0; step < steps; step++) {
            for (int f = 0; f < paths.length; f++) {
                mapper.writeValue(paths[f], document(shape, f, step));
                if (readBack && step % 5 == 4) check(mapper.readValue(paths[f], Map.class), f, step, paths[f]);
            }
        }
    }

    private static Map<String, byte[]> toHashMap(ObjectMapper mapper, String shape, File[] paths, int steps, boolean readBack)
            throws IOException {
        Map<String, byte[]> cache = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            for (int f = 0; f < paths.length; f++) {
                String name = paths[f].getName();
                cache.put(name, mapper.writeValueAsBytes(document(shape, f, step)));
                if (readBack && step % 5 == 4) check(mapper.readValue(cache.get(name), Map.class), f, step, paths[f]);
            }
        }
        return cache;
    }

    /** The floors {@code build} (the document object kept) and {@code tokens} (a TokenBuffer of it kept). */
    private static Map<String, Object> keep(ObjectMapper mapper, boolean tokens, String shape, File[] paths, int steps,
                                            boolean readBack) throws IOException {
        Map<String, Object> kept = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            for (int f = 0; f < paths.length; f++) {
                String name = paths[f].getName();
                Object doc = document(shape, f, step);
                if (tokens) {
                    TokenBuffer t = new TokenBuffer(mapper, false);
                    mapper.writeValue(t, doc);
                    kept.put(name, t);
                } else {
                    kept.put(name, doc);
                }
                if (readBack && step % 5 == 4) {
                    Object v = kept.get(name);
                    check(v instanceof TokenBuffer t ? mapper.readValue(t.asParser(), Map.class) : (Map<?, ?>) v, f, step, paths[f]);
                }
            }
        }
        return kept;
    }

    static Object document(String shape, int f, int step) {
        return shape.equals("docs") ? doc(f, step) : smallWithLists(f, step);
    }

    /** An id, a 3-entry parameter map, a 32-double state array, a 3-entry statistics map. */
    static Map<String, Object> doc(int f, int step) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("alpha", 0.5 + f * 0.001);
        params.put("beta", 2);
        params.put("label", "run-" + f);
        double[] state = new double[32];
        double sum = 0;
        for (int i = 0; i < state.length; i++) {
            state[i] = Math.cos(step * 0.021 + i * 0.11 + f) * 1.7;
            sum += state[i];
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("step", step);
        stats.put("sum", sum);
        stats.put("max", state[step % state.length]);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", "doc-" + f);
        doc.put("params", params);
        doc.put("state", state);
        doc.put("stats", stats);
        return doc;
    }

    /** A small map with nested lists (strings, numbers, a list of lists). */
    static Map<String, Object> smallWithLists(int f, int step) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "item-" + f);
        m.put("rev", step);
        m.put("tags", List.of("a", "b" + (step % 3), "c"));
        List<Object> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) rows.add(List.of(i, step + i, (step * 0.5) + i));
        m.put("rows", rows);
        return m;
    }

    private static void check(Map<?, ?> doc, int f, int step, File file) {
        Object stats = doc.get("stats");
        Object read = stats instanceof Map<?, ?> s ? s.get("step") : null;
        if (!(read instanceof Number n) || n.intValue() != step || !("doc-" + f).equals(doc.get("id"))) {
            throw new IllegalStateException(file + " read back " + doc + ", expected step " + step);
        }
    }
}
