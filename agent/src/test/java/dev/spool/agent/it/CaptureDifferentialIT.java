package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The capture differential through the agent, per host Jackson version: {@code CaptureDiffHost}
 * writes and reads back every case of {@code DiffCases} plain and under the agent (no timed
 * flush, so every read is answered from the buffer: from tokens where proven, else from bytes;
 * the files reach disk at the exit flush). Same output lines, same files. On 2.9 (before
 * {@code ObjectWriter.createGenerator}) nothing may be captured: the encode-on-call path must
 * carry everything; from 2.12 on most writes are captured and reads served from tokens. CI runs
 * this on Java 17 and again on Java 25 ({@code -Dspool.it.java}).
 */
class CaptureDifferentialIT {

    private static final Pattern COUNT = Pattern.compile("\"(captured|encodedAtCall|tokenReads|byteReads)\":(\\d+)");

    @TempDir
    Path root;

    @ParameterizedTest
    @ValueSource(strings = {"2.9", "2.12", "2.15", "2.22"})
    void shouldWriteAndReadExactlyAsPlainJackson(String version) throws Exception {
        String status = differential(version, List.of());
        long captured = count(status, "captured");
        long tokenReads = count(status, "tokenReads");
        long byteReads = count(status, "byteReads");
        if (version.equals("2.9")) {
            assertEquals(0, captured, status);
            assertEquals(0, tokenReads, status);
        } else {
            assertTrue(captured > 100, "most writes captured: " + status);
            assertTrue(tokenReads > 100 && byteReads > 100, "reads from tokens where proven, else bytes: " + status);
        }
    }

    /**
     * Issue 31's standing fuzz: {@code DiffFuzz}'s seeded random configurations × values ×
     * misbehaving serializers × a random reader, plain vs agent, on the oldest capturing and the
     * newest Jackson. CI: seed 31, 120 cases per version (~30 s each); longer by
     * {@code -Dcapturediff.fuzz.seed=<n> -Dcapturediff.fuzz.cases=<n>}. A case that differs is named by
     * its own seed ({@code fuzz-<hex>}): add it to {@code DiffFuzz.KEPT}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"2.12", "2.22"})
    void shouldMatchPlainJacksonOnSeededRandomConfigurations(String version) throws Exception {
        String fuzz = "-Dcapturediff.fuzz=" + Long.getLong("capturediff.fuzz.seed", 31) + ":" + Integer.getInteger("capturediff.fuzz.cases", 120);
        String status = differential(version, List.of(fuzz));
        assertTrue(count(status, "captured") > 10, "the fuzz reaches the capture: " + status);
    }

    /** Runs {@code CaptureDiffHost} plain and under the agent; asserts the same output and files; returns the agent's status. */
    private String differential(String version, List<String> hostArgs) throws Exception {
        String libs = "jackson-" + version + "/";
        String cp = Forked.hostClassPath(libs + "jackson-databind.jar", libs + "jackson-core.jar",
                libs + "jackson-annotations.jar", libs + "jackson-datatype-jsr310.jar");
        Path plain = root.resolve("plain");
        Path routed = root.resolve("agent");
        String expected = Forked.start(root, "plain", hostArgs, cp, "dev.spool.agent.host.CaptureDiffHost",
                plain.toString()).awaitSuccess();
        String status;
        String actual;
        List<String> agentJvm = new java.util.ArrayList<>(Forked.agentArgs("spool.buffer.flush.interval=0"));
        agentJvm.addAll(hostArgs);
        try (Forked host = Forked.start(root, "agent", agentJvm, cp,
                "dev.spool.agent.host.CaptureDiffHost", routed.toString(), "hold")) {
            host.awaitOutput("done");
            status = Forked.cli(root, "status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            host.process.getOutputStream().close();
            actual = host.awaitSuccess();
            assertEquals(List.of(), Trees.spoolLines(host.err()).stream()
                    .filter(l -> !(version.equals("2.9") && l.contains("cannot capture Jackson writes")))
                    .collect(Collectors.toList()), "no problem reported (2.9: the one line saying writes are encoded at the call)");
        }
        assertEquals(expected, actual, "reads under the agent");
        Trees.assertSameFiles(plain, routed);
        Files.writeString(root.resolve("counts.txt"), status);
        System.out.println("[capture-diff] Jackson " + version + " " + hostArgs + " captured=" + count(status, "captured")
                + " tokenReads=" + count(status, "tokenReads") + " byteReads=" + count(status, "byteReads")
                + " cases=" + expected.lines().filter(l -> l.startsWith("W ")).count() + " " + status.replaceAll(".*(\"encodedAtCallByReason\":\\{[^}]*\\}).*", "$1"));
        return status;
    }

    private static long count(String status, String name) {
        Matcher m = COUNT.matcher(status);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return Long.parseLong(m.group(2));
            }
        }
        throw new AssertionError("no " + name + " in " + status);
    }
}
