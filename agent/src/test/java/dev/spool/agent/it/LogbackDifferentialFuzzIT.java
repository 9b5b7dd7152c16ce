package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Logback differential fuzz (issue 30): {@code LogbackFuzzHost} writes seeded random cases (random and
 * real-world {@code PatternLayout} patterns over every converter, {@code PatternLayoutEncoder},
 * {@code LayoutWrappingEncoder}, {@code EchoLayout}, {@code JsonEncoder}, 5 charsets, {@code FileAppender} and
 * {@code RollingFileAppender} by size, time, size and time, gzip, append, framework packages, packaging data,
 * events with fixed time stamps, parameters, throwables, MDC, markers, key-value pairs, 8 locales and zones,
 * 1 and 4 threads) plain and under the agent, in forked JVMs, on Logback 1.4, 1.5 and the newest line; every
 * case's files must be the same bytes (one thread) or, all files together, the same multiset of lines (four
 * threads interleave, and roll by size at other lines, differently in each run).
 *
 * <p>CI runs a fixed budget ({@value #DEFAULT_CASES} cases of seed {@value #DEFAULT_SEED} per Logback line, about a
 * minute); a longer run: {@code -Dspool.fuzz.logback.seed=<n> -Dspool.fuzz.logback.cases=<n>
 * -Dspool.fuzz.logback.minutes=<n>} ({@code scripts/logback-fuzz.sh}); {@code -Dspool.fuzz.logback.lines=1.5}
 * picks lines, {@code -Dspool.fuzz.logback.agentOptions=spool.sink.journal.hostBytes=true} adds agent options. A case never depends on another: a difference replays alone with its seed (and {@code .first}).
 * Java 25: {@code -Dspool.it.java}. A difference it finds is kept as a named case in {@code LogbackFuzzCasesIT}.
 */
class LogbackDifferentialFuzzIT {

    static final long DEFAULT_SEED = 30;
    static final int DEFAULT_CASES = 70;
    /** More agent options for every agent run, {@code -Dspool.fuzz.logback.agentOptions=k=v,...} (e.g. {@code spool.sink.journal.hostBytes=true}). */
    private static final String AGENT_OPTIONS = System.getProperty("spool.fuzz.logback.agentOptions", "").isEmpty() ? ""
            : "," + System.getProperty("spool.fuzz.logback.agentOptions");
    /** Logback lines and their host library folders ({@code Forked.logback(folder)}). */
    static final Map<String, String> LINES = Map.of("1.4", "logback-1.4", "1.5", "", "1.6", "logback-next");
    private static final Pattern CASE = Pattern.compile("^case (\\d+) threads (\\d+) charset (\\S+) file (\\S+) (.*)$", Pattern.MULTILINE);

    @TempDir
    Path root;

    /** The fixed budget (or, with {@code -Dspool.fuzz.logback.minutes}, seed after seed from the given one until the time is up). */
    @Test
    void shouldWriteWhatPlainLogbackWrites_forSeededRandomPatternsEncodersAppendersEventsAndThreads() throws Exception {
        long seed = Long.getLong("spool.fuzz.logback.seed", DEFAULT_SEED);
        int first = Integer.getInteger("spool.fuzz.logback.first", 0);
        int cases = Integer.getInteger("spool.fuzz.logback.cases", DEFAULT_CASES);
        long minutes = Long.getLong("spool.fuzz.logback.minutes", 0);
        List<String> lines = Arrays.asList(System.getProperty("spool.fuzz.logback.lines", "1.4,1.5,1.6").split(","));
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(minutes);
        List<String> differences = new ArrayList<>();
        int seeds = 0;
        do {
            for (String line : lines) {
                differences.addAll(differences(line, seed + seeds, first, first + cases));
            }
            seeds++;
        } while (System.nanoTime() < deadline);
        System.out.println("[logback-fuzz] seeds " + seed + ".." + (seed + seeds - 1) + " x " + cases + " cases x Logback " + lines
                + ", java " + Forked.java() + ": differences " + differences.size());
        assertEquals(List.of(), differences, "seed " + seed);
    }

    /** Runs cases {@code [first, end)} of {@code seed} on Logback {@code line} plain and under the agent; one difference per case. */
    static List<String> differences(Path root, String line, long seed, int first, int end) throws Exception {
        String name = line + "-" + seed + "-" + first;
        Path plain = root.resolve(name + "-plain");
        Path agent = root.resolve(name + "-agent");
        String plainOut = host(root, name + "-plain", List.of(), line, seed, first, end, plain);
        String agentOut = host(root, name + "-agent", Forked.agentArgs("spool.log.level=debug" + AGENT_OPTIONS), line, seed, first, end, agent);
        String agentErr = Files.readString(root.resolve(name + "-agent.err"));
        assertEquals(cases(plainOut), cases(agentOut.replace(agent.toString(), plain.toString())), "the cases the host ran");
        List<String> differences = new ArrayList<>();
        Matcher m = CASE.matcher(plainOut);
        int seen = 0;
        int routed = 0;
        int deferred = 0;
        while (m.find()) {
            seen++;
            String folder = "case-" + m.group(1);
            String active = m.group(4).replace(plain.toString(), agent.toString());
            routed += agentErr.contains("routing " + active + " through the sink") ? 1 : 0;
            deferred += agentErr.contains("routing " + active + " through the sink, encoded on Spool's thread") ? 1 : 0;
            boolean interleaved = Integer.parseInt(m.group(2)) > 1;
            Charset cs = Charset.forName(m.group(3));
            Map<String, String> p = files(plain.resolve(folder), interleaved, cs);
            Map<String, String> a = files(agent.resolve(folder), interleaved, cs);
            if (!p.equals(a)) {
                differences.add("Logback " + line + " seed " + seed + " " + m.group() + "\n" + FirstDifference.of(p, a, 80));
            }
        }
        assertEquals(end - first, seen, plainOut);
        System.out.println("[logback-fuzz] Logback " + line + " seed " + seed + ": " + routed + " of " + seen
                + " cases routed through the sink, " + deferred + " encoded on Spool's thread");
        // a case not routed names why (Logback 1.4's size-and-time policy reads the file's length); most are routed
        assertTrue(routed == seen || agentErr.contains("not routing a "), "every case routed or named: " + agentErr);
        assertTrue(deferred > 0, "some cases encoded on Spool's thread: " + agentErr);
        return differences;
    }

    private List<String> differences(String line, long seed, int first, int end) throws Exception {
        return differences(root, line, seed, first, end);
    }

    /** The host's case lines (not what Logback prints of its own, e.g. a status naming an object by its hash). */
    private static List<String> cases(String out) {
        return out.lines().filter(l -> l.startsWith("case ")).toList();
    }

    private static String host(Path root, String name, List<String> jvm, String line, long seed, int first, int end, Path dir)
            throws Exception {
        Files.createDirectories(dir);
        String folder = LINES.get(line);
        if (folder == null) {
            throw new IllegalArgumentException("no Logback line " + line + " among " + LINES.keySet());
        }
        Forked host = Forked.start(root, name, jvm, Forked.hostClassPath(Forked.logback(folder)), "dev.spool.agent.host.LogbackFuzzHost",
                Long.toString(seed), Integer.toString(first), Integer.toString(end), dir.toString());
        String out = host.await(java.time.Duration.ofMinutes(30)) == 0 ? host.out() : null;
        assertTrue(out != null && out.endsWith("done\n"), name + " host failed: " + host.err());
        return out;
    }

    /** Each file's bytes in hex, or (threads interleaved) the decoded lines of all files together, gzip opened, sorted. */
    static Map<String, String> files(Path dir, boolean interleaved, Charset cs) throws IOException {
        Map<String, String> files = new TreeMap<>();
        List<String> pooled = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                if (interleaved) {
                    byte[] bytes;
                    try (InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(f))
                            : Files.newInputStream(f)) {
                        bytes = in.readAllBytes();
                    }
                    // UTF-16's byte order mark starts each event's bytes: not a line's own
                    pooled.addAll(Arrays.asList(new String(bytes, cs).replace("\uFEFF", "").split("\n", -1)));
                } else {
                    files.put(f.getFileName().toString(), HexFormat.of().formatHex(Files.readAllBytes(f)));
                }
            }
        }
        if (interleaved) {
            pooled.removeIf(String::isEmpty); // where a file ends: the number of files depends on the interleaving
            pooled.sort(null);
            files.put("all lines", String.join("\n", pooled));
        }
        return files;
    }
}
