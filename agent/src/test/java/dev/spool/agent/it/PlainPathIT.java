package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.mbeans.AgentMXBean;
import dev.spool.mbeans.ObjectNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handlers and appenders whose format, filter or stream Spool cannot prove exact on its own path
 * stay on the plain path, each counted by reason on the Agent bean ({@code PlainPathByReason},
 * read through {@code JMX.newMXBeanProxy}) and in {@code status --json}, and named once in Spool's
 * log (not once per record): {@code PlainPathHost}'s JUL handler with its own formatter and one with
 * a filter, a Logback appender in prudent mode (not routed) and one with an HTML layout (routed,
 * encoded on the caller's thread); its plain {@code SimpleFormatter} handler and pattern appender
 * are not counted.
 */
class PlainPathIT {

    static final int RECORDS = 50;

    @TempDir
    Path root;

    @Test
    void shouldCountAndNameOnceEachHandlerAndAppenderLeftOnThePlainPath() throws Exception {
        Path dir = Files.createDirectories(root.resolve("agent"));
        Path config = root.resolve("logback.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"PRUDENT\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + dir.resolve("prudent.log") + "</file><prudent>true</prudent>\n"
                + "    <encoder><pattern>%msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <appender name=\"HTML\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + dir.resolve("html.log") + "</file>\n"
                + "    <encoder class=\"ch.qos.logback.core.encoder.LayoutWrappingEncoder\">\n"
                + "      <layout class=\"ch.qos.logback.classic.html.HTMLLayout\"><pattern>%msg</pattern></layout>\n"
                + "    </encoder>\n"
                + "  </appender>\n"
                + "  <appender name=\"PATTERN\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + dir.resolve("pattern.log") + "</file>\n"
                + "    <encoder><pattern>%level %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"PRUDENT\"/><appender-ref ref=\"HTML\"/><appender-ref ref=\"PATTERN\"/></root>\n"
                + "</configuration>\n", StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(Forked.agentArgs("spool.log.level=debug"));
        jvm.add("-Dlogback.configurationFile=" + config);
        String status;
        Map<String, Long> byReason;
        try (Forked host = Forked.start(root, "agent", jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.PlainPathHost", dir.toString(), String.valueOf(RECORDS))) {
            host.awaitOutput("done");
            try (JMXConnector jmx = host.connectJmx()) {
                // the beans join the platform server up to a poll period after this connection created it
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                Forked.awaitCondition(() -> Forked.registered(server, ObjectNames.agent()));
                byReason = JMX.newMXBeanProxy(server, ObjectNames.agent(), AgentMXBean.class)
                        .getPlainPathByReason();
            }
            status = Forked.cli(root, "status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            host.process.getOutputStream().close();
            host.awaitSuccess();
            String err = host.err();
            assertEquals(Map.of("jul-formatter", 1L, "jul-filter", 1L, "logback-prudent", 1L, "logback-encoder", 1L), byReason, err);
            assertTrue(status.contains("\"plainPathByReason\":{\"jul-filter\":1,\"jul-formatter\":1,\"logback-encoder\":1,"
                    + "\"logback-prudent\":1}"), status);
            assertOnce(err, "plain path for JUL handler", dir.resolve("custom.log"), "[jul-formatter]");
            assertOnce(err, "plain path for JUL handler", dir.resolve("filtered.log"), "[jul-filter]");
            assertOnce(err, "plain path for Logback appender PRUDENT", dir.resolve("prudent.log"), "[logback-prudent]");
            assertOnce(err, "plain path for Logback appender HTML", dir.resolve("html.log"), "[logback-encoder]");
            assertEquals(4, err.lines().filter(l -> l.contains("plain path for")).count(), err);
        }
    }

    private static void assertOnce(String err, String who, Path file, String reason) {
        long n = err.lines().filter(l -> l.startsWith("[spool] " + who) && l.contains(file.toString()) && l.endsWith(reason)).count();
        assertEquals(1, n, who + " " + file + " " + reason + " named once: " + err);
    }
}
