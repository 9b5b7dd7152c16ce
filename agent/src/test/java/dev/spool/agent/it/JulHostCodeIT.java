package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JUL records whose formatting runs the host's own code, or whose bytes or level sit at an edge
 * (issue 30, items 1–4): {@code JulHostCodeHost} plain and under the agent (records captured at
 * the call), the same stdout and the same files byte for byte.
 */
class JulHostCodeIT {

    @TempDir
    Path root;

    /**
     * Item 1: the host holds its lock L, logs an exception whose {@code getMessage()} takes L, then
     * flushes. Spool's writer must not run that {@code getMessage()} under the handler's monitor
     * (it then waits for L while the host's flush waits for the monitor): the host returns.
     */
    @Test
    void shouldReturnFromTheHostsFlush_whenTheExceptionsMessageTakesALockTheHostHolds() throws Exception {
        compare("deadlock");
    }

    /** Item 4: a level whose value is OFF's refuses every record, as {@code Handler.isLoggable} compares values. */
    @Test
    void shouldRefuseEveryRecord_whenTheHandlersLevelHasOffsValueButIsNotOff() throws Exception {
        compare("maxed");
    }

    /**
     * Item 2: a surrogate pair split across two records (the first the file's first, written through the
     * handler's Writer, which keeps the high surrogate for its next write) in UTF-8, ISO-8859-1 and US-ASCII;
     * and with a size limit, where the bytes counted decide the rotation.
     */
    @Test
    void shouldEncodeASurrogatePairSplitAcrossTwoRecordsAsPlain_fromTheFilesFirstRecord() throws Exception {
        compare("surrogate");
    }

    /**
     * Item 3: a record logged from an exception's {@code getMessage()} or a parameter's {@code toString()}
     * is written before the record being formatted, once, whether or not the format prints the exception or
     * the message (the JDK's {@code SimpleFormatter} formats both at the call); one whose {@code getMessage()}
     * then throws reaches the handler's {@code ErrorManager} once, and its nested record is written once.
     */
    @Test
    void shouldWriteRecordsLoggedFromTheRecordsOwnMethodsFirstAndOnce() throws Exception {
        compare("nested");
    }

    private void compare(String scenario) throws Exception {
        Run plain = run(scenario, "plain", List.of());
        Run agent = run(scenario, "agent", Forked.agentArgs("spool.log.level=debug"));
        assertTrue(agent.err.contains("JUL capture of "), scenario + ": the agent captured the records (not the host's path): "
                + agent.err);
        assertEquals(plain.out, agent.out, scenario + ": what the host printed");
        assertEquals(plain.files.keySet(), agent.files.keySet(), scenario + ": the same files");
        for (String name : plain.files.keySet()) {
            assertEquals(plain.files.get(name), agent.files.get(name), scenario + ": " + name + " (hex)");
        }
    }

    private record Run(String out, String err, TreeMap<String, String> files) { }

    private Run run(String scenario, String name, List<String> jvm) throws Exception {
        Path dir = Files.createDirectories(root.resolve(scenario + "-" + name));
        List<String> args = new ArrayList<>(jvm);
        args.add("-Duser.language=en");
        Forked host = Forked.start(root, scenario + "-" + name, args, Forked.hostClassPath(),
                "dev.spool.agent.host.JulHostCodeHost", scenario, dir.toString());
        String out = host.awaitSuccess();
        assertTrue(out.endsWith("done\n"), out);
        TreeMap<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> !p.getFileName().toString().endsWith(".lck")).toList()) {
                files.put(p.getFileName().toString(), text(p));
            }
        }
        return new Run(out, host.err(), files);
    }

    /** The file's bytes in hex, line by line (an XML record's date, millis, nanos and thread id masked: they differ per run). */
    private static String text(Path p) throws IOException {
        byte[] bytes = Files.readAllBytes(p);
        if (p.getFileName().toString().startsWith("xml")) {
            String xml = new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                    .replaceAll("<(date|millis|nanos|thread)>[^<]*</\\1>", "<$1/>");
            bytes = xml.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        StringBuilder sb = new StringBuilder();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                int end = Math.min(i + 1, bytes.length);
                sb.append(HexFormat.of().formatHex(bytes, start, end)).append("  ")
                        .append(new String(bytes, start, end - start, java.nio.charset.StandardCharsets.ISO_8859_1).strip())
                        .append('\n');
                start = i + 1;
            }
        }
        return sb.toString();
    }
}
