package dev.spool.bench.grid;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The grid's host program: a signac-style workload with plain Jackson, run as a whole process
 * (plain, or under {@code -javaagent:spool-agent.jar}) by {@link GridRun}. {@code files} job
 * documents (32 doubles plus parameters and statistics, about 1.2 KB) in {@code dir}, rewritten
 * round-robin {@code rewrites} times, every 5th write read back. Folders are made before the clock
 * starts. Prints one line: {@code appMillis=<n> hwmKiB=<peak resident> rssKiB=<resident now>}.
 * <pre>java [-Dgrid.bean=true] -cp bench/target/benchmarks.jar dev.spool.bench.grid.GridHost /tmp/g 2000 5</pre>
 */
public final class GridHost {
    static final int SHARDS = 256;
    /** {@code -Dgrid.bean=true}: print the agent's Buffer bean counters after the loop. */
    static final boolean BEAN = Boolean.getBoolean("grid.bean");

    private GridHost() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int files = Integer.parseInt(args[1]);
        int rewrites = Integer.parseInt(args[2]);
        ObjectMapper mapper = new ObjectMapper();
        File[] paths = new File[files];
        for (int s = 0; s < Math.min(SHARDS, files); s++) Files.createDirectories(dir.resolve("s" + s));
        for (int f = 0; f < files; f++) paths[f] = dir.resolve("s" + (f % SHARDS)).resolve("job" + f + ".json").toFile();
        // the agent joins the platform MBean server once someone created it: before the clock, and only when asked
        if (BEAN) ManagementFactory.getPlatformMBeanServer();
        long start = System.nanoTime();
        long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long writes = 0;
        double check = 0;
        for (int r = 0; r < rewrites; r++) {
            for (int f = 0; f < files; f++) {
                mapper.writeValue(paths[f], document(f, r));
                if (++writes % 5 == 0) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> back = mapper.readValue(paths[f], Map.class);
                    check += ((Number) ((Map<?, ?>) back.get("statistics")).get("mean")).doubleValue();
                }
            }
        }
        long appMillis = (System.nanoTime() - start) / 1_000_000;
        long appCpuMillis = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
        System.out.println("appMillis=" + appMillis + " appCpuMillis=" + appCpuMillis + " hwmKiB=" + status("VmHWM") + " rssKiB=" + status("VmRSS")
                + " check=" + (long) check + bufferBean());
    }

    /**
     * With {@code -Dgrid.bean=true}, the heap live after a full GC and the agent's Buffer MBean
     * counters after the loop (back-pressure waits and their time, flushes, files written), or
     * nothing when the bean is not there (plain run). Read after the clock stopped.
     */
    static String bufferBean() {
        try {
            if (!BEAN) return "";
            StringBuilder out = new StringBuilder();
            System.gc(); // after the clock: the heap still live (the buffer's dirty content and stamps, the host's data)
            out.append(" liveHeapKiB=").append(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024);
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("dev.spool:type=Buffer");
            if (!server.isRegistered(name)) return out.toString();
            for (String a : new String[] {"BackpressureWaits", "BackpressureMillis", "Flushes", "FilesWritten",
                    "WritesAbsorbed", "DirtyEntries", "EstimatedBytes"}) {
                out.append(' ').append(a).append('=').append(server.getAttribute(name, a));
            }
            return out.toString();
        } catch (Exception e) {
            return " bufferBean=" + e;
        }
    }

    static Map<String, Object> document(int f, int r) {
        double[] values = new double[32];
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.sin(f * 31.0 + r * 7.0 + i) * 1000.0;
            sum += values[i];
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("job", f);
        params.put("temperature", 273.15 + f % 100);
        params.put("pressure", 1.0 + (f % 7) / 10.0);
        params.put("model", "lj-" + (f % 3));
        params.put("seed", 42L * f);
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("step", r);
        stats.put("mean", sum / values.length);
        stats.put("min", min(values));
        stats.put("converged", r % 2 == 0);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("parameters", params);
        doc.put("values", values);
        doc.put("statistics", stats);
        doc.put("tags", List.of("grid", "round-" + r));
        return doc;
    }

    private static double min(double[] v) {
        double m = Double.MAX_VALUE;
        for (double d : v) m = Math.min(m, d);
        return m;
    }

    /** A line of /proc/self/status in KiB, or -1 where there is none. */
    static long status(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }
}
