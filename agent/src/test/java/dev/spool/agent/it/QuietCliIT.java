package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status} and {@code flush} against a host started with {@code -javaagent:} reach the agent
 * through the target's local JMX connector, so the target's stderr stays as it was: no JEP 451
 * "agent loaded dynamically" lines, which a Java 21+ target prints each time an agent jar is loaded
 * into it. The host and the CLI run on Java 25 where it is installed (else on the build's java,
 * where the check is weaker: Java 17 prints no such lines).
 */
class QuietCliIT {

    static final Path JAVA_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    @TempDir
    Path root;

    @Test
    void shouldLeaveTheTargetsStderrUnchanged_whenStatusAndFlushAskAnAgentInstalledAtStartup() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        Path doc = dir.resolve("doc.json");
        try (Forked host = host(dir, "spool.buffer.flush.interval=0", false)) {
            host.awaitOutput("ready");
            send(host, "write 0");
            host.awaitOutput("wrote 0 read 0");
            send(host, "write 1");
            host.awaitOutput("wrote 1 read 1");
            assertEquals("{\"step\":0}", Files.readString(doc), "the new content is held in memory");
            String pid = String.valueOf(host.pid());
            String before = host.err();

            Forked status = cli("status", pid);
            String summary = status.awaitSuccess();
            assertTrue(summary.startsWith("Spool ") && summary.contains("in process " + pid + ": routing on"), summary);
            assertTrue(summary.contains("ObjectMapper") && summary.contains("1 not yet written"), summary);
            assertTrue(summary.lines().count() > 3, "a readable summary, not one JSON line: " + summary);

            Forked json = cli("status", pid, "--json");
            String answer = json.awaitSuccess().trim();
            assertTrue(answer.startsWith("{\"installed\":true") && answer.contains("\"configuration\""), answer);

            Forked flush = cli("flush", pid, "--json");
            String flushed = flush.awaitSuccess();
            assertTrue(flushed.contains("\"filesWritten\":1"), flushed);
            assertEquals("{\"step\":1}", Files.readString(doc), "flush wrote the buffered content");

            for (Forked c : List.of(status, json, flush)) {
                assertFalse(c.err().contains("WARNING") || c.err().contains("the target runs Java"), c.describe());
            }
            assertEquals(before, host.err(), "the target's stderr after status and flush");
            host.closeInput();
            assertEquals(0, host.await(), host.describe());
            assertEquals(before, host.err(), "the target's stderr, to its end");
        }
    }

    /** An agent without its beans ({@code spool.jmx.enabled=false}) is still asked: by loading the agent jar, as before. */
    @Test
    void shouldFallBackToLoadingTheAgentJar_whenTheAgentHasNoBeans() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        try (Forked host = host(dir, "spool.jmx.enabled=false", true)) {
            host.awaitOutput("ready");
            String answer = cli("status", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(answer.startsWith("{\"installed\":true"), answer);
            host.closeInput();
            assertEquals(0, host.await(), host.describe());
        }
    }

    /** The host; {@code allowLoading}: started with -XX:+EnableDynamicAgentLoading, which hides the JDK's lines. */
    private Forked host(Path dir, String options, boolean allowLoading) throws Exception {
        List<String> command = new ArrayList<>(List.of(java()));
        if (allowLoading) {
            command.add("-XX:+EnableDynamicAgentLoading");
        }
        command.addAll(Forked.agentArgs(options));
        command.addAll(List.of("-cp", Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.AttachHost", dir.toString()));
        return Forked.exec(root, "host", command);
    }

    private Forked cli(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", Forked.agentJar()));
        command.addAll(List.of(args));
        return Forked.exec(root, args[0] + "-" + System.nanoTime(), command);
    }

    private static String java() {
        return Files.isExecutable(JAVA_25) ? JAVA_25.toString() : Forked.java();
    }

    private static void send(Forked host, String line) throws Exception {
        OutputStream in = host.process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
