package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic attach: a running host (its ObjectMapper already loaded and used) gets the agent with
 * {@code attach}; later writes are held in memory and read back from there, {@code status} shows
 * the instrumented class, {@code flush} puts the newest content on disk.
 */
class AttachIT {

    @TempDir
    Path root;

    @Test
    void shouldAttachToARunningHostThenReportStatusAndFlush() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        Path doc = dir.resolve("doc.json");
        try (Forked host = Forked.start(root, "host", List.of("-XX:+EnableDynamicAgentLoading"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.AttachHost", dir.toString())) {
            host.awaitOutput("ready");
            OutputStream in = host.process.getOutputStream();
            send(in, "write 0");
            host.awaitOutput("wrote 0 read 0");
            assertEquals("{\"step\":0}", Files.readString(doc));

            String pid = String.valueOf(host.pid());
            Forked attach = Forked.cli(root, "attach", "attach", pid, "spool.buffer.flush.interval=0");
            assertEquals("attached to " + pid, attach.awaitSuccess().trim(), attach.describe());

            send(in, "write 1");
            host.awaitOutput("wrote 1 read 1");
            assertEquals("{\"step\":0}", Files.readString(doc), "the new content is held in memory");

            String status = Forked.cli(root, "status", "status", pid, "--json").awaitSuccess();
            assertTrue(status.contains("com.fasterxml.jackson.databind.ObjectMapper"), status);
            assertTrue(status.contains("\"routingEnabled\":true"), status);

            String flushed = Forked.cli(root, "flush", "flush", pid, "--json").awaitSuccess();
            assertTrue(flushed.contains("\"filesWritten\":1"), flushed);
            assertEquals("{\"step\":1}", Files.readString(doc));
            in.close();
            assertEquals(0, host.await(), host.describe());
        }
    }

    @Test
    void shouldSayWhenNoAgentIsInstalled() throws Exception {
        try (Forked host = Forked.start(root, "host", List.of("-XX:+EnableDynamicAgentLoading"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.AttachHost", root.toString())) {
            host.awaitOutput("ready");
            Forked status = Forked.cli(root, "status", "status", String.valueOf(host.pid()));
            assertNotEquals(0, status.await());
            assertTrue(status.err().contains("not installed"), status.describe());
        }
    }

    /**
     * Since Java 21 the JDK warns on the target's stderr about a dynamically loaded agent;
     * {@code attach} prints the same lines, with the advice, on its own stderr. Its confirmation
     * and a later {@code status} ask the agent through JMX, so they add no second set of lines to
     * the target. Version-agnostic: on Java 17 neither side prints them.
     */
    @Test
    void shouldPrintWhatTheJdkPrintsForADynamicallyLoadedAgent() throws Exception {
        try (Forked host = Forked.start(root, "host", List.of(), Forked.hostClassPath(Forked.jackson()),
                "dev.spool.agent.host.AttachHost", root.toString())) {
            host.awaitOutput("ready");
            String pid = String.valueOf(host.pid());
            Forked attach = Forked.cli(root, "attach", "attach", pid);
            assertEquals("attached to " + pid, attach.awaitSuccess().trim(), attach.describe());
            Forked status = Forked.cli(root, "status", "status", pid);
            status.awaitSuccess();
            List<String> jdk = jdkWarnings(host);
            List<String> advice = attach.err().lines().map(String::trim).filter(l -> l.startsWith("WARNING: "))
                    .collect(java.util.stream.Collectors.toList());
            assertEquals(jdk, advice, "the JDK's lines, once, as attach says them\n" + host.describe() + "\n" + attach.describe());
            assertEquals(!jdk.isEmpty(), attach.err().contains("-XX:+EnableDynamicAgentLoading"), attach.describe());
            assertFalse(status.err().contains("WARNING"), status.describe());
        }
    }

    private static List<String> jdkWarnings(Forked host) {
        try {
            return host.err().lines().filter(l -> l.startsWith("WARNING: ")).collect(java.util.stream.Collectors.toList());
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    private static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
