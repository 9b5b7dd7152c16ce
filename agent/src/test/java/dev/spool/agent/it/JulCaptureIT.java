package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JUL capture at the call (issue 13, items 1–2), plain vs agent in forked JVMs on
 * {@code JulCaptureHost}, with {@code SimpleFormatter} (default and custom format) and
 * {@code XMLFormatter} ({@code useInstant} on and off): the same files byte for byte (every rotated
 * generation, XML heads and tails, sequence numbers), exceptions printed by their callers (host
 * code runs at the call, issue 30) while the rest of the formatting moves off the caller, the host's {@code flush()} seeing every record logged before it.
 */
class JulCaptureIT {

    private static final String FORMAT = "%1$tY-%1$tm-%1$td %1$tH:%1$tM:%1$tS.%1$tL %4$-7s [%3$s] (%2$s) %5$s%6$s%n";

    @TempDir
    Path root;

    @Test
    void shouldWriteTheSameFilesAsPlainJulAndRotateAtTheSameRecord_formattingOffTheCallersThread() throws Exception {
        for (String format : List.of("default", FORMAT, "xml", "xml-old")) {
            String tag = format.equals(FORMAT) ? "custom" : format;
            // two runs in UTF-8, two in ISO-8859-1 (unmappable characters and lone surrogates become '?')
            String encoding = "-Dhost.encoding=" + (tag.equals("custom") || tag.equals("xml-old") ? "ISO-8859-1" : "UTF-8");
            Run plain = run("plain-" + tag, List.of(encoding), 1, format);
            List<String> agentJvm = new ArrayList<>(Forked.agentArgs("spool.log.level=debug"));
            agentJvm.add(encoding);
            Run agent = run("agent-" + tag, agentJvm, 1, format);
            assertTrue(plain.files.size() >= 3, "the host rotates: " + plain.files.keySet());
            assertEquals(plain.files.keySet(), agent.files.keySet(), "the same generations");
            for (String name : plain.files.keySet()) {
                assertArrayEquals(plain.files.get(name), agent.files.get(name), tag + ": " + name + " differs");
            }
            assertTrue(plain.out.contains("printed on [worker-N]"), plain.out);
            assertEquals(line(plain.out, "printed on"), line(agent.out, "printed on"),
                    "the exception's methods run on the caller's thread, as plain (issue 30: host code never on the writer)");
            assertEquals(line(plain.out, "after flush"), line(agent.out, "after flush"), "the host's flush sees every record");
            assertTrue(agent.err.contains("inferred by Spool's caller finder") && !agent.err.contains("the JDK infers JUL sources"),
                    "Spool's caller inference ran, and agreed with the JDK's where it checked: " + agent.err);
            java.util.regex.Matcher direct = java.util.regex.Pattern.compile("records (\\d+) written into the file's meter directly")
                    .matcher(agent.err);
            // of ~580 loggable records (FINEST is below the handler's level) each file's first goes through the Writer (the head)
            assertTrue(direct.find() && Integer.parseInt(direct.group(1)) >= 500,
                    "the writer wrote the lines' bytes into the handler's meter, not through its Writer: " + agent.err);
            assertEquals("publish synchronized false", line(agent.out, "publish synchronized"),
                    "the caller captures without the handler's lock (Java 17: the modifier removed at class load)");
        }
    }

    @Test
    void shouldKeepEveryRecordWholeAndEachThreadsOrderWithTwoThreads() throws Exception {
        Run plain = run("plain-2", List.of(), 2, FORMAT, 0, 1); // no rotation: which records a rotation drops depends on the interleaving
        Run agent = run("agent-2", Forked.agentArgs(null), 2, FORMAT, 0, 1);
        assertEquals(records(plain).stream().sorted().toList(), records(agent).stream().sorted().toList(),
                "the same records, whole (as a set: the threads interleave differently in each run)");
        for (String t : List.of("thread 0 ", "thread 1 ")) {
            List<Integer> seq = records(agent).stream().filter(r -> r.contains(t))
                    .map(r -> Integer.parseInt(r.substring(r.indexOf(t + "record ") + t.length() + 7, r.indexOf(':', r.indexOf(t + "record ")))))
                    .toList();
            assertEquals(records(plain).stream().filter(r -> r.contains(t)).count(), seq.size(), t);
            for (int i = 1; i < seq.size(); i++) {
                assertTrue(seq.get(i - 1) < seq.get(i), "each thread's order kept: " + seq.get(i - 1) + " before " + seq.get(i));
            }
        }
        assertEquals(line(plain.out, "printed on"), line(agent.out, "printed on"), "exceptions printed by their callers");
    }

    @Test
    void shouldShowEveryRecordAfterTheHostsFlushAndWithinTheBound_whenCaptured() throws Exception {
        String plain = probe("plain", "visibility");
        String agent = probe("agent", "visibility");
        assertEquals(lines(plain, "after flush"), lines(agent, "after flush"), "the host's flush writes what was captured");
        assertTrue(agent.contains("visible "), "the last record reaches the file without any flush: " + agent);
    }

    /** As {@code JulFidelityIT}'s full-disk probe, with the record captured: needs root for the tmpfs (CI runs as root). */
    @Test
    void shouldCallTheErrorManagerAndReturnOnAFullDisk_whenCaptured() throws Exception {
        Path disk = Files.createDirectories(root.resolve("disk"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.toString())
                .redirectErrorStream(true).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0, "mounting a tmpfs needs root");
        try {
            List<String> jvm = new ArrayList<>(Forked.agentArgs(null));
            jvm.addAll(List.of("-Dprobe.simple=true", "-Djava.util.logging.SimpleFormatter.format=%5$s%n"));
            String out = Forked.start(root, "fulldisk", jvm, Forked.hostClassPath(), "dev.spool.agent.host.JulProbeHost",
                    "fulldisk", disk.resolve("probe.log").toString()).awaitSuccess();
            assertTrue(out.contains("flushed\nclosed; ErrorManager called true\ndone"), out);
        } finally {
            new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
        }
    }

    private String probe(String name, String scenario) throws Exception {
        Path dir = Files.createDirectories(root.resolve("probe-" + name));
        List<String> jvm = new ArrayList<>(name.equals("plain") ? List.of() : Forked.agentArgs(null));
        jvm.addAll(List.of("-Dprobe.simple=true", "-Djava.util.logging.SimpleFormatter.format=%5$s%n"));
        return Forked.start(root, "probe-" + name, jvm, Forked.hostClassPath(), "dev.spool.agent.host.JulProbeHost",
                scenario, dir.resolve("probe.log").toString()).awaitSuccess();
    }

    private static String lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).collect(java.util.stream.Collectors.joining("\n"));
    }

    private record Run(String out, String err, TreeMap<String, byte[]> files) { }

    private Run run(String name, List<String> jvm, int threads, String format) throws Exception {
        return run(name, jvm, threads, format, 40_000, 4);
    }

    private Run run(String name, List<String> jvm, int threads, String format, int limit, int count) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        List<String> args = new ArrayList<>(jvm);
        args.add("-Duser.timezone=Europe/Berlin");
        args.add("-Duser.language=de");
        args.add("-Duser.country=DE");
        args.add("-Djdk.logger.packages=dev.spool.agent.host.JulCaptureHost$WrapLog"); // the host's wrapper, skipped by the inference
        Forked host = Forked.start(root, name, args, Forked.hostClassPath(), "dev.spool.agent.host.JulCaptureHost",
                dir.toString(), Integer.toString(threads), "700", Integer.toString(limit), Integer.toString(count), format);
        String out = host.awaitSuccess();
        TreeMap<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
                files.put(p.getFileName().toString(), Files.readAllBytes(p));
            }
        }
        return new Run(out, host.err(), files);
    }

    /** Every record of every generation (a record starts at a line with the date), oldest file first. */
    private static List<String> records(Run run) throws IOException {
        List<String> records = new ArrayList<>();
        List<String> names = new ArrayList<>(run.files.descendingKeySet());
        for (String n : names) {
            StringBuilder current = null;
            for (String line : new String(run.files.get(n), java.nio.charset.StandardCharsets.UTF_8).split("\n", -1)) {
                if (line.startsWith("2025-") || line.startsWith("2026-")) {
                    if (current != null) {
                        records.add(current.toString().stripTrailing());
                    }
                    current = new StringBuilder(line);
                } else if (current != null) {
                    current.append('\n').append(line);
                }
            }
            if (current != null) {
                records.add(current.toString().stripTrailing()); // the file's last record: no newline after its end
            }
        }
        return records;
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("none");
    }
}
