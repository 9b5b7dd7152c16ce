package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JUL differential fuzz (issue 30): {@code JulFuzzHost} writes seeded random cases (formats by
 * property and by {@code logging.properties}, {@code XMLFormatter}, records with fixed instants,
 * parameters, bundles, exceptions, 8 locales and zones, 5 encodings, rotation, append, 1 and 4
 * threads) plain and under the agent, in forked JVMs; every case's files must be the same bytes
 * (one thread) or the same multiset of lines (four threads interleave differently in each run).
 *
 * <p>CI runs a fixed budget ({@value #DEFAULT_CASES} cases of seed {@value #DEFAULT_SEED}, about 30 s); a longer
 * run: {@code -Dspool.fuzz.jul.seed=<n> -Dspool.fuzz.jul.cases=<n> -Dspool.fuzz.jul.minutes=<n>}
 * ({@code scripts/jul-fuzz.sh}). A case never depends on another: a difference replays alone with its seed.
 * Java 25: {@code -Dspool.it.java}. A difference it finds is kept as a named case below, with the
 * seed and case that found it.
 */
class JulDifferentialFuzzIT {

    static final long DEFAULT_SEED = 30;
    static final int DEFAULT_CASES = 150;
    private static final Pattern CASE = Pattern.compile("^case (\\d+) threads (\\d+) encoding (\\S+) (.*)$", Pattern.MULTILINE);

    @TempDir
    Path root;

    /**
     * The fixed budget (or, with {@code -Dspool.fuzz.jul.minutes}, seed after seed from the given one until
     * the time is up). Seed 30's first 150 cases hold what e95aaa1's agent wrote differently (73 of them:
     * issue 30 items 2–4, each also a named case in {@code JulHostCodeIT}).
     */
    @Test
    void shouldWriteWhatPlainJulWrites_forSeededRandomFormatsRecordsLocalesEncodingsAndThreads() throws Exception {
        long seed = Long.getLong("spool.fuzz.jul.seed", DEFAULT_SEED);
        int cases = Integer.getInteger("spool.fuzz.jul.cases", DEFAULT_CASES);
        long minutes = Long.getLong("spool.fuzz.jul.minutes", 0);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(minutes);
        List<String> differences = new ArrayList<>();
        int seeds = 0;
        do {
            differences.addAll(differences(seed + seeds, 0, cases));
            seeds++;
        } while (System.nanoTime() < deadline);
        System.out.println("[jul-fuzz] seeds " + seed + ".." + (seed + seeds - 1) + " x " + cases + " cases, java "
                + Forked.java() + ": differences " + differences.size());
        assertEquals(List.of(), differences, "seed " + seed);
    }

    /**
     * Seed 124's case 2 (4 threads, {@code XMLFormatter}, zone Pacific/Chatham, a {@code Date} parameter of a
     * message without a brace: its {@code toString()} runs at the call) once wrote "GMT+12:45" for one record where
     * plain wrote "CHAST" (the JDK's zone names computed on four threads at once; plain runs that code under the
     * handler's monitor, and so does the capture since): 1 of 3 runs of seed 124 failed before. A race, so run
     * {@code -Dspool.fuzz.jul.seed124Runs} times (default 3).
     */
    @Test
    void shouldWriteADateParametersZoneAsPlain_whenFourThreadsFormatItAtOnce_seed124case2() throws Exception {
        List<String> differences = new ArrayList<>();
        for (int run = 0, runs = Integer.getInteger("spool.fuzz.jul.seed124Runs", 3); run < runs; run++) {
            differences.addAll(differences(124, 0, 3));
            try (Stream<Path> old = Files.list(root)) { // the next run writes the same names afresh
                for (Path p : old.toList()) {
                    deleteTree(p);
                }
            }
        }
        assertEquals(List.of(), differences);
    }

    private static void deleteTree(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.list(p)) {
                for (Path c : s.toList()) {
                    deleteTree(c);
                }
            }
        }
        Files.delete(p);
    }

    /** Runs cases {@code [first, end)} of {@code seed} plain and under the agent; the differences, one per case. */
    private List<String> differences(long seed, int first, int end) throws Exception {
        Path plain = root.resolve(seed + "-plain");
        Path agent = root.resolve(seed + "-agent");
        String plainOut = host(seed + "-plain", List.of(), seed, first, end, plain);
        String agentOut = host(seed + "-agent", Forked.agentArgs("spool.log.level=debug"), seed, first, end, agent);
        String agentErr = Files.readString(root.resolve(seed + "-agent.err"));
        long captured = agentErr.lines().filter(l -> l.contains("JUL capture of ")).count();
        assertEquals(plainOut, agentOut, "the cases the host ran");
        // UTF-16's encoder writes its byte order mark once per file, which a journal of records cannot replay:
        // since 5 Dec such a handler formats on the caller's thread and its bytes are journaled (issue 33)
        long stateful = CASE.matcher(plainOut).results().filter(r -> r.group(3).equals("UTF-16")).count();
        assertEquals(end - first - stateful, captured, "every case's handler captured by the agent but the UTF-16 ones");
        assertEquals(stateful, agentErr.lines().filter(l -> l.contains("plain path for ") && l.endsWith("[jul-charset]")).count(),
                "UTF-16 handlers named on the plain path");
        List<String> differences = new ArrayList<>();
        Matcher m = CASE.matcher(plainOut);
        int seen = 0;
        while (m.find()) {
            seen++;
            String name = "case-" + m.group(1);
            boolean interleaved = Integer.parseInt(m.group(2)) > 1;
            Charset cs = Charset.forName(m.group(3));
            Map<String, String> p = files(plain.resolve(name), interleaved, cs);
            Map<String, String> a = files(agent.resolve(name), interleaved, cs);
            if (!p.equals(a)) {
                differences.add("seed " + seed + " " + m.group() + "\n" + FirstDifference.of(p, a, 60));
            }
        }
        assertEquals(end - first, seen, plainOut);
        return differences;
    }

    private String host(String name, List<String> jvm, long seed, int first, int end, Path dir) throws Exception {
        Files.createDirectories(dir);
        Forked host = Forked.start(root, name, jvm, Forked.hostClassPath(), "dev.spool.agent.host.JulFuzzHost",
                Long.toString(seed), Integer.toString(first), Integer.toString(end), dir.toString());
        String out = host.await(java.time.Duration.ofMinutes(30)) == 0 ? host.out() : null;
        assertTrue(out != null && out.endsWith("done\n"), name + " host failed: " + host.err());
        return out;
    }

    /** Each file's content: its bytes in hex, or (threads interleaved) its decoded lines sorted. */
    private static Map<String, String> files(Path dir, boolean interleaved, Charset cs) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(f -> !f.getFileName().toString().endsWith(".lck")).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                if (interleaved) {
                    // UTF-16's byte order mark sticks to whichever record the Writer encodes first: not a line's own
                    String[] lines = new String(bytes, cs).replace("\uFEFF", "").split("\n", -1);
                    Arrays.sort(lines);
                    files.put(f.getFileName().toString(), String.join("\n", lines));
                } else {
                    files.put(f.getFileName().toString(), HexFormat.of().formatHex(bytes));
                }
            }
        }
        return files;
    }
}
