package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Logback corners found by the differential fuzz of issue 30 (items 5-7), each run plain and with
 * the agent in forked JVMs on Logback 1.5 and the newest line: the files must match byte for byte.
 * The caller data when the context's {@code frameworkPackages} cover Logback's own classes (they
 * would cover Spool's frame too), the {@code null} Logback prints for an event stamped −1 ms, and
 * the order of an appender's lines when its capture queue stays full (with the wait's bound).
 */
class LogbackExactnessIT {

    private static final String FILE = "ch.qos.logback.core.FileAppender";
    private static final String HOST = "dev.spool.agent.host.LogbackQuirksHost";

    @TempDir
    Path root;

    @ParameterizedTest(name = "host libraries ''{0}''")
    @ValueSource(strings = {"", "logback-next"})
    void shouldPrintTheHostsCallerNotSpoolsFrame_whenFrameworkPackagesCoverLogback(String logback) throws Exception {
        List<String> appenders = List.of(
                appender("C", "caller.log", "%C.%M:%L %caller{2}%msg%n"),
                appender("P", "plain.log", "%level %msg%n"));
        Runs runs = run(logback, "caller", appenders, "caller", "300", "ch.qos.logback");
        assertTrue(runs.agentErr.contains("routing " + runs.agentDir.resolve("caller.log")
                + " through the sink, encoded on Spool's thread"), runs.agentErr);
        String caller = Files.readString(runs.agentDir.resolve("caller.log"), StandardCharsets.UTF_8);
        assertTrue(caller.startsWith("dev.spool.agent.host.LogbackQuirksHost.logAt:"), caller);
        assertTrue(!caller.contains("dev.spool.agent."  + "logback"), "none of Spool's frames: " + caller);
        assertTrue(runs.agentErr.contains("frameworkPackages could match"), "named once: " + runs.agentErr);
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
    }

    /** Framework packages of the host's own (a logging wrapper's) cannot match Spool's frames: still encoded on Spool's thread. */
    @Test
    void shouldKeepEncodingOnSpoolsThread_whenFrameworkPackagesCoverNeitherLogbackNorSpool() throws Exception {
        List<String> appenders = List.of(appender("C", "caller.log", "%C.%M:%L %caller{2}%msg%n"));
        Runs runs = run("", "wrapper", appenders, "caller", "300", "com.example.logwrapper", "org.example");
        assertTrue(runs.agentErr.contains("routing " + runs.agentDir.resolve("caller.log")
                + " through the sink, encoded on Spool's thread"), runs.agentErr);
        assertTrue(!runs.agentErr.contains("frameworkPackages"), "not left to Logback's path: " + runs.agentErr);
        String caller = Files.readString(runs.agentDir.resolve("caller.log"), StandardCharsets.UTF_8);
        assertTrue(caller.startsWith("dev.spool.agent.host.LogbackQuirksHost.logAt:"), caller);
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
    }

    @ParameterizedTest(name = "host libraries ''{0}''")
    @ValueSource(strings = {"", "logback-next"})
    void shouldPrintWhatLogbackPrintsForAnEventStampedMinusOneMillisecond(String logback) throws Exception {
        List<String> appenders = List.of(
                appender("D1", "d1.log", "%d{yyyy-MM-dd HH:mm:ss.SSS, UTC} %msg%n"),
                appender("D2", "d2.log", "[%-30date{ISO8601, UTC}] %msg%n"),
                appender("D3", "d3.log", "%d{HH:mm:ss, UTC}|%.3d{SSS, UTC} %msg%n"));
        Runs runs = run(logback, "epoch", appenders, "epoch");
        for (String name : List.of("d1.log", "d2.log", "d3.log")) {
            assertTrue(runs.agentErr.contains("routing " + runs.agentDir.resolve(name)
                    + " through the sink, encoded on Spool's thread (compiled layout"), runs.agentErr);
        }
        System.out.println("plain d1.log (" + (logback.isEmpty() ? "1.5" : logback) + "):\n"
                + Files.readString(runs.plainDir.resolve("d1.log")));
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
    }

    @Test
    void shouldKeepTheAppendersOrderAndTheConfiguredWait_whenItsCaptureQueueStaysFull() throws Exception {
        int records = 4096 + 64; // the queue's capacity (DeferredAppender.CAPACITY) and more
        String cp = Forked.hostClassPath(Forked.logback());
        Path plainDir = Files.createDirectories(root.resolve("plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve("agent").resolve("logs"));
        List<String> appenders = List.of(appender("A", "busy.log", "%msg%n"));
        Forked.start(root, "plain", List.of("-Dlogback.configurationFile=" + config(plainDir, appenders)), cp,
                "dev.spool.agent.host.LogbackBusyHost", String.valueOf(records)).awaitSuccess();
        Forked agent = Forked.start(root, "agent", LogRouteIT.concat(Forked.agentArgs("spool.log.level=debug,spool.sink.wait.millis=300"),
                "-Dlogback.configurationFile=" + config(agentDir, appenders)), cp, "dev.spool.agent.host.LogbackBusyHost",
                String.valueOf(records));
        String out = agent.awaitSuccess();
        String err = agent.err();
        assertTrue(err.contains("routing " + agentDir.resolve("busy.log") + " through the sink, encoded on Spool's thread"), err);
        List<String> expected = IntStream.range(0, records).mapToObj(i -> "line " + i).collect(Collectors.toList());
        assertEquals(expected, Files.readAllLines(plainDir.resolve("busy.log")));
        List<String> lines = Files.readAllLines(agentDir.resolve("busy.log"));
        assertEquals(records, lines.size());
        List<String> breaks = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).equals("line " + (Integer.parseInt(lines.get(i - 1).substring(5)) + 1))) {
                breaks.add(lines.get(i - 1) + " -> " + lines.get(i));
            }
        }
        assertEquals(List.of(), breaks, "the appender's lines in the order they were logged");
        long slowest = Long.parseLong(out.lines().filter(l -> l.startsWith("slowest ")).findFirst().orElseThrow().substring(8));
        // one wait of spool.sink.wait.millis (300 ms), then the queued events written on the logging thread;
        // not Spool's default 10 s (generous: the machine may be loaded)
        assertTrue(slowest < 8_000, "the slowest log call took " + slowest + " ms\n" + err);
        assertTrue(err.contains("stayed full"), "the queue did fill up (the case under test happened): " + err);
    }

    /**
     * Logback's {@code FileAppenderResilienceTest} under load (issue 30 item 9): the host closes the file
     * under its appender; plain, the next log call meets the failure (Logback's recovery listener hears of
     * it before the call returns, and its stream recovers later). The appender encodes on the caller's
     * thread ({@code %property}), as that test's does.
     */
    @Test
    void shouldLetTheNextLogCallMeetTheFailure_whenTheHostClosesTheFileUnderItsAppender() throws Exception {
        String cp = Forked.hostClassPath(Forked.logback());
        Path plainDir = Files.createDirectories(root.resolve("resilience-plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve("resilience-agent").resolve("logs"));
        List<String> appenders = List.of(appender("FILE", "resilience.log", "%property{none} %msg%n"));
        String plain = Forked.start(root, "resilience-plain", List.of("-Dlogback.configurationFile=" + config(plainDir, appenders)),
                cp, "dev.spool.agent.host.LogbackResilienceHost").awaitSuccess();
        Forked agent = Forked.start(root, "resilience-agent", LogRouteIT.concat(Forked.agentArgs("spool.log.level=debug"),
                "-Dlogback.configurationFile=" + config(agentDir, appenders)), cp, "dev.spool.agent.host.LogbackResilienceHost");
        String out = agent.awaitSuccess();
        assertTrue(plain.contains("failures at the call 1") && plain.contains("recovered true"), plain);
        assertTrue(agent.err().contains("routing " + agentDir.resolve("resilience.log") + " through the sink"), agent.err());
        assertEquals(lines(plain), lines(out));
        assertEquals(Files.readAllLines(plainDir.resolve("resilience.log")).subList(0, 3),
                Files.readAllLines(agentDir.resolve("resilience.log")).subList(0, 3), "the lines written before the close");
    }

    private static List<String> lines(String out) {
        return out.lines().filter(l -> l.startsWith("failures") || l.startsWith("recovered")).collect(Collectors.toList());
    }

    private static String appender(String name, String file, String pattern) {
        return "  <appender name=\"" + name + "\" class=\"" + FILE + "\">\n    <file>@DIR@/" + file + "</file>\n"
                + "    <encoder><pattern>" + pattern + "</pattern></encoder>\n  </appender>\n";
    }

    record Runs(Path plainDir, Path agentDir, String agentErr) {}

    private Runs run(String logback, String name, List<String> appenders, String... args) throws Exception {
        String cp = Forked.hostClassPath(Forked.logback(logback));
        Path plainDir = Files.createDirectories(root.resolve(name + "-plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve(name + "-agent").resolve("logs"));
        Forked.start(root, name + "-plain", List.of("-Dlogback.configurationFile=" + config(plainDir, appenders)), cp, HOST, args)
                .awaitSuccess();
        Forked agent = Forked.start(root, name + "-agent", LogRouteIT.concat(Forked.agentArgs("spool.log.level=debug"),
                "-Dlogback.configurationFile=" + config(agentDir, appenders)), cp, HOST, args);
        agent.awaitSuccess();
        return new Runs(plainDir, agentDir, agent.err());
    }

    private static Path config(Path dir, List<String> appenders) throws Exception {
        StringBuilder xml = new StringBuilder("<configuration>\n");
        StringBuilder refs = new StringBuilder();
        for (String a : appenders) {
            xml.append(a.replace("@DIR@", dir.toString()));
            String n = a.substring(a.indexOf("name=\"") + 6, a.indexOf('"', a.indexOf("name=\"") + 6));
            refs.append("<appender-ref ref=\"").append(n).append("\"/>");
        }
        xml.append("  <root level=\"INFO\">").append(refs).append("</root>\n</configuration>\n");
        Path file = dir.getParent().resolve("logback.xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }
}
