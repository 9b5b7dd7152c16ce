package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code attach} to a running application whose JUL {@code FileHandler} or Logback
 * {@code FileAppender} was opened before the agent came: it is taken over (its later lines go
 * through the sink), the file ends with the same bytes as a plain run of the same commands, and
 * the kill switch gives it back.
 */
class AttachOpenHandlerIT {

    @TempDir
    Path root;

    @Test
    void shouldRouteAHandlerOpenedBeforeAttachWithTheSameBytesAsPlain() throws Exception {
        assertSameBytesPlainAndAttached(dir -> start(dir, List.of(), Forked.hostClassPath(),
                "dev.spool.agent.host.OpenJulHost", dir.toString()));
    }

    @Test
    void shouldRouteALogbackAppenderOpenedBeforeAttachWithTheSameBytesAsPlain() throws Exception {
        assertSameBytesPlainAndAttached(dir -> {
            Path conf = Files.createDirectories(root.resolve("conf-" + dir.getFileName()));
            Path xml = LogRouteIT.logbackConfig(conf, dir);
            return start(dir, List.of("-Dlogback.configurationFile=" + xml), Forked.hostClassPath(Forked.logback()),
                    "dev.spool.agent.host.OpenLogbackHost");
        });
    }

    interface Host {
        Forked start(Path dir) throws Exception;
    }

    private void assertSameBytesPlainAndAttached(Host hosts) throws Exception {
        Path plain = Files.createDirectories(root.resolve("plain"));
        try (Forked host = hosts.start(plain)) {
            host.awaitOutput("ready");
            for (int total : List.of(40, 80, 120)) {
                send(host, "log 40");
                host.awaitOutput("logged " + total);
            }
            host.closeInput();
            assertEquals(0, host.await(), host.describe());
        }

        Path routed = Files.createDirectories(root.resolve("agent"));
        try (Forked host = hosts.start(routed)) {
            host.awaitOutput("ready");
            send(host, "log 40");
            host.awaitOutput("logged 40");
            String pid = String.valueOf(host.pid());
            Forked attach = Forked.cli(root, "attach", "attach", pid);
            assertEquals("attached to " + pid, attach.awaitSuccess().trim(), attach.describe());
            String status = Forked.cli(root, "status", "status", pid, "--json").awaitSuccess();
            assertTrue(status.contains("app.log"), "the log opened before attach is routed: " + status);

            send(host, "log 40");
            host.awaitOutput("logged 80");
            try (JMXConnector jmx = host.connectJmx()) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                Forked.awaitCondition(() -> sinkEvents(server) >= 40);
                server.setAttribute(new ObjectName("dev.spool:type=Agent"), new Attribute("RoutingEnabled", false));
            }
            send(host, "log 40"); // after the kill switch: the log's own path again
            host.awaitOutput("logged 120");
            host.closeInput();
            assertEquals(0, host.await(), host.describe());
        }
        assertArrayEquals(Files.readAllBytes(plain.resolve("app.log")), Files.readAllBytes(routed.resolve("app.log")),
                "app.log plain vs attached");
    }

    private Forked start(Path dir, List<String> jvmArgs, String classPath, String main, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(jvmArgs);
        all.add("-XX:+EnableDynamicAgentLoading");
        return Forked.start(root, "host-" + dir.getFileName(), all, classPath, main, args);
    }

    /** Records written by the sinks of routed logs so far (the log's Sink bean). */
    private static long sinkEvents(MBeanServerConnection server) {
        try {
            long n = 0;
            for (ObjectName sink : server.queryNames(new ObjectName("dev.spool:type=Sink,*"), null)) {
                if (String.valueOf(server.getAttribute(sink, "Path")).endsWith("app.log")) {
                    n += (Long) server.getAttribute(sink, "EventsWritten");
                }
            }
            return n;
        } catch (Exception e) {
            return -1;
        }
    }

    private static void send(Forked host, String line) throws Exception {
        OutputStream in = host.process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
