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
 * are not counted. Events left to Logback's own path one by one are counted per event, named once per
 * appender: those of an appender printing the caller data (the context's {@code frameworkPackages} list
 * {@code ch.qos.logback}) and those carrying an MDC map of the host's own.
 */
class PlainPathIT {

    static final int RECORDS = 50;

    @TempDir
    Path root;

    @Test
    void shouldCountAndNameOnceEachHandlerAndAppenderLeftOnThePlainPath() throws Exception {
        Observed o = run("agent", "spool.log.level=debug");
        long events = RECORDS;
        assertEquals(Map.of("jul-formatter", 1L, "jul-filter", 1L, "logback-prudent", 1L, "logback-encoder", 1L,
                "logback-event-caller-frames", 2 * events, "logback-event-mdc-map", events), o.byReason, o.err);
        assertTrue(o.status.contains("\"plainPathByReason\":{\"jul-filter\":1,\"jul-formatter\":1,\"logback-encoder\":1,"
                + "\"logback-event-caller-frames\":" + 2 * events + ",\"logback-event-mdc-map\":" + events
                + ",\"logback-prudent\":1}"), o.status);
        assertOnce(o.err, "plain path for JUL handler", o.dir.resolve("custom.log"), "[jul-formatter]");
        assertOnce(o.err, "plain path for JUL handler", o.dir.resolve("filtered.log"), "[jul-filter]");
        assertOnce(o.err, "plain path for Logback appender PRUDENT", o.dir.resolve("prudent.log"), "[logback-prudent]");
        assertOnce(o.err, "plain path for Logback appender HTML", o.dir.resolve("html.log"), "[logback-encoder]");
        assertOnce(o.err, "plain path for events of Logback appender CALLER", o.dir.resolve("caller.log"),
                "[logback-event-caller-frames]");
        assertOnce(o.err, "plain path for events of Logback appender PATTERN", o.dir.resolve("pattern.log"),
                "[logback-event-mdc-map]");
        assertEquals(6, o.err.lines().filter(l -> l.contains("plain path for")).count(), o.err);
        // every JUL log is journaled while the host logs (issue 33): those left on the plain path as the bytes they
        // write; each journal goes with its handler's close
        assertEquals(List.of("custom.log.spool-journal", "filtered.log.spool-journal", "simple.log.spool-journal"),
                o.journalsWhileLogging, o.err);
        assertEquals(List.of(), o.journalsAfter, o.err);
    }

    /**
     * Events Logback encodes itself because of their MDC map or caller data (every event beside the
     * OpenTelemetry agent carries its MDC map) are counted at the default level too, and add nothing to
     * the host's stderr: before they went through {@code PlainPaths}, the caller-frames case printed a
     * warning there.
     */
    @Test
    void shouldCountEventsLeftToLogbacksPathWithoutAWordOnTheHostsStderrAtTheDefaultLevel() throws Exception {
        Observed o = run("quiet", "");
        assertEquals(2L * RECORDS, o.byReason.get("logback-event-caller-frames"), o.byReason.toString());
        assertEquals((long) RECORDS, o.byReason.get("logback-event-mdc-map"), o.byReason.toString());
        assertEquals(List.of(), o.err.lines().filter(l -> l.contains("[spool]")).toList(),
                "nothing of Spool's on the host's stderr at spool.log.level=info: " + o.err);
    }

    /** What one run of {@code PlainPathHost} showed: its folder, the Agent bean's counts, {@code status --json}, its stderr. */
    private record Observed(Path dir, Map<String, Long> byReason, String status, String err, List<String> journalsWhileLogging,
                            List<String> journalsAfter) {}

    private Observed run(String name, String agentOptions) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        Path config = root.resolve(name + "-logback.xml");
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
                + appender("PATTERN", dir.resolve("pattern.log"), "%level %msg%n")
                + appender("CALLER", dir.resolve("caller.log"), "%line %msg%n")
                + "  <root level=\"INFO\"><appender-ref ref=\"PRUDENT\"/><appender-ref ref=\"HTML\"/><appender-ref ref=\"PATTERN\"/>"
                + "<appender-ref ref=\"CALLER\"/></root>\n"
                + "</configuration>\n", StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(Forked.agentArgs(agentOptions));
        jvm.add("-Dlogback.configurationFile=" + config);
        try (Forked host = Forked.start(root, name, jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.PlainPathHost", dir.toString(), String.valueOf(RECORDS))) {
            host.awaitOutput("done");
            List<String> journals = journals(dir);
            Map<String, Long> byReason;
            try (JMXConnector jmx = host.connectJmx()) {
                // the beans join the platform server up to a poll period after this connection created it
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                Forked.awaitCondition(() -> Forked.registered(server, ObjectNames.agent()));
                byReason = JMX.newMXBeanProxy(server, ObjectNames.agent(), AgentMXBean.class)
                        .getPlainPathByReason();
            }
            String status = Forked.cli(root, name + "-status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            host.process.getOutputStream().close();
            host.awaitSuccess();
            return new Observed(dir, byReason, status, host.err(), journals, journals(dir));
        }
    }

    /** The JUL journals in {@code dir}, by name. */
    private static List<String> journals(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spool-journal")).sorted().toList();
        }
    }

    private static String appender(String name, Path file, String pattern) {
        return "  <appender name=\"" + name + "\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + file + "</file>\n"
                + "    <encoder><pattern>" + pattern + "</pattern></encoder>\n"
                + "  </appender>\n";
    }

    private static void assertOnce(String err, String who, Path file, String reason) {
        long n = err.lines().filter(l -> l.startsWith("[spool] " + who) && l.contains(file.toString()) && l.endsWith(reason)).count();
        assertEquals(1, n, who + " " + file + " " + reason + " named once: " + err);
    }
}
