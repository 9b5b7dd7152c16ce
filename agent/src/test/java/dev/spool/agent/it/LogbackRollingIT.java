package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Size-based rolling with the check on Spool's encoding thread (issue 13 item 3): {@code LogbackRollingHost}
 * runs plain and under the agent; three threads taking turns log through a {@code SizeBasedTriggeringPolicy},
 * a {@code SizeAndTimeBasedRollingPolicy} and a size-and-time policy whose clock follows the events (so it
 * also rolls by time), every archive gzip-compressed. Every file — the active ones and each archive,
 * compressed bytes included — must be byte-identical: each roll happened before the same event as plain.
 * Then the threads log at once into a fourth size-based appender: no event lost or doubled, and under the
 * agent every archive ends at the first event that brought the file to the limit (the checks and writes
 * are serialised on the encoding thread; plain Logback checks before writing but not atomically with it).
 */
class LogbackRollingIT {

    private static final int EVENTS = 150;
    private static final int THREADS = 3;
    private static final long FREE_LIMIT = 2048;

    @TempDir
    Path root;

    @Test
    void shouldRollAtTheSameEventsAsPlainLogbackWithTheCheckOnSpoolsThread() throws Exception {
        String cp = Forked.hostClassPath(Forked.logback());
        Path plainDir = Files.createDirectories(root.resolve("plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve("agent").resolve("logs"));
        String host = "dev.spool.agent.host.LogbackRollingHost";
        Forked plain = Forked.start(root, "plain", List.of(), cp, host, plainDir.toString(), "" + EVENTS, "" + THREADS);
        plain.awaitSuccess();
        Forked agent = Forked.start(root, "agent", Forked.agentArgs("spool.log.level=debug"), cp, host,
                agentDir.toString(), "" + EVENTS, "" + THREADS);
        agent.awaitSuccess();
        String err = agent.err();
        for (String log : List.of("size.log", "sat.log", "clock.log", "free/free.log")) {
            assertTrue(Pattern.compile(Pattern.quote("routing " + agentDir.resolve(log) + " through the sink, encoded on Spool's thread")
                    + "[^\\n]*rolling checked there").matcher(err).find(), log + ": " + err);
        }
        assertTrue(!err.contains("without its rolling check"), err);
        List<String> archives = names(agentDir, ".gz");
        assertTrue(count(archives, "size.") >= 8 && count(archives, "sat-") >= 8, "rolled by size: " + archives);
        assertTrue(archives.stream().filter(n -> n.startsWith("clock-")).map(n -> n.substring(0, n.indexOf('.')))
                .distinct().count() >= 10, "rolled by time too: " + archives);
        Path plainFree = plainDir.resolve("free");
        Path agentFree = agentDir.resolve("free");
        Files.move(plainFree, root.resolve("plain").resolve("free"));
        Files.move(agentFree, root.resolve("agent").resolve("free"));
        Trees.assertSameFiles(plainDir, agentDir);

        for (Path free : List.of(root.resolve("plain").resolve("free"), root.resolve("agent").resolve("free"))) {
            List<String> lines = new ArrayList<>();
            for (String name : names(free, ".log")) {
                lines.addAll(Files.readAllLines(free.resolve(name), StandardCharsets.UTF_8));
            }
            assertEquals(EVENTS * THREADS, lines.size(), "every event once in " + free);
            assertEquals(EVENTS * THREADS, lines.stream().distinct().count(), "no event twice in " + free);
        }
        Path free = root.resolve("agent").resolve("free");
        for (String name : names(free, ".log")) {
            if (name.equals("free.log")) {
                continue;
            }
            byte[] bytes = Files.readAllBytes(free.resolve(name));
            int lastLine = bytes.length - 1 - lastIndexOf(bytes, bytes.length - 2);
            assertTrue(bytes.length >= FREE_LIMIT && bytes.length - lastLine < FREE_LIMIT,
                    name + " rolled at the first event that reached the limit: " + bytes.length + " bytes, last line " + lastLine);
        }
        assertTrue(text(agentDir.resolve("size.1.log.gz")).startsWith("INFO  ordered [w"), "readable archives");
    }

    private static int lastIndexOf(byte[] bytes, int from) {
        for (int i = from; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static long count(List<String> names, String prefix) {
        return names.stream().filter(n -> n.startsWith(prefix)).count();
    }

    private static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().collect(Collectors.toList());
        }
    }

    private static String text(Path gz) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
