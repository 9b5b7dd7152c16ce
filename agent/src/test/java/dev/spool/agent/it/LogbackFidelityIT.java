package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logback under the agent behaves as without it (issue 10, items 1-3): the appender keeps its own
 * {@code ResilientFileOutputStream} (prudent mode works, code inspecting the stream works),
 * size-based rolling happens at the same record, and under {@code spool.events.visibility=exact}
 * every record is in the file when {@code doAppend} returns. Each test runs the same host plain
 * and with the agent, in forked JVMs, and compares what the host observed and what is on disk.
 */
class LogbackFidelityIT {

    private static final String FILE = "ch.qos.logback.core.FileAppender";
    private static final String ENCODER = "<encoder><pattern>%level %logger %msg%n</pattern></encoder>";

    @TempDir
    Path root;

    @Test
    void shouldKeepTheAppendersOwnStreamAndPrudentMode() throws Exception {
        Runs runs = run("appender", null, 200, dir -> appender("PLAIN", FILE, dir.resolve("app.log"), "")
                + appender("PRUDENT", FILE, dir.resolve("prudent.log"), "<prudent>true</prudent>"));
        assertEquals(lines(runs.plain, "stream "), lines(runs.agent, "stream "));
        assertTrue(lines(runs.agent, "stream ").contains("ResilientFileOutputStream"), runs.agent);
        assertEquals("errors 0 []", lines(runs.agent, "errors "), runs.agentErr);
        assertTrue(runs.agentErr.contains("routing " + runs.agentDir.resolve("app.log") + " through the sink"), runs.agentErr);
        assertTrue(runs.agentErr.contains("prudent mode"), runs.agentErr);
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
        assertEquals(200, Files.readAllLines(runs.agentDir.resolve("prudent.log")).size());
    }

    @Test
    void shouldRollBySizeAtTheSameRecord() throws Exception {
        Runs runs = run("rolling", null, 400, dir -> "  <appender name=\"ROLL\" class=\"ch.qos.logback.core.rolling.RollingFileAppender\">\n"
                + "    <file>" + dir.resolve("roll.log") + "</file>\n"
                + "    <rollingPolicy class=\"ch.qos.logback.core.rolling.FixedWindowRollingPolicy\">\n"
                + "      <fileNamePattern>" + dir.resolve("roll.%i.log") + "</fileNamePattern>\n"
                + "      <minIndex>1</minIndex><maxIndex>20</maxIndex>\n"
                + "    </rollingPolicy>\n"
                + "    <triggeringPolicy class=\"ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy\">\n"
                + "      <maxFileSize>5KB</maxFileSize><checkIncrement>0 milliseconds</checkIncrement>\n"
                + "    </triggeringPolicy>\n"
                + "    " + ENCODER + "\n"
                + "  </appender>\n");
        assertTrue(runs.agentErr.contains("routing " + runs.agentDir.resolve("roll.log") + " through the sink"), runs.agentErr);
        List<Path> rolled;
        try (var files = Files.list(runs.agentDir)) {
            rolled = files.filter(p -> p.getFileName().toString().matches("roll\\.\\d+\\.log")).collect(Collectors.toList());
        }
        assertTrue(rolled.size() >= 4, "several rollovers: " + rolled);
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
    }

    @Test
    void shouldHaveEachRecordInTheFileWhenDoAppendReturns_underExactVisibility() throws Exception {
        Runs runs = run("exact", "spool.events.visibility=exact", 100,
                dir -> appender("PLAIN", FILE, dir.resolve("app.log"), ""));
        assertEquals(lines(runs.plain, "after "), lines(runs.agent, "after "));
        assertEquals(lines(runs.plain, "stream "), lines(runs.agent, "stream "));
        Trees.assertSameFiles(runs.plainDir, runs.agentDir);
    }

    private static String appender(String name, String type, Path file, String extra) {
        return "  <appender name=\"" + name + "\" class=\"" + type + "\">\n"
                + "    <file>" + file + "</file>" + extra + "\n"
                + "    " + ENCODER + "\n"
                + "  </appender>\n";
    }

    private static String lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.joining("\n"));
    }

    interface Appenders {
        String of(Path dir);
    }

    record Runs(Path plainDir, Path agentDir, String plain, String agent, String agentErr) {}

    /** Runs {@code LogbackProbeHost} plain and with the agent, each with its own folder and configuration. */
    private Runs run(String name, String options, int records, Appenders appenders) throws Exception {
        String cp = Forked.hostClassPath(Forked.logback());
        Path plainDir = Files.createDirectories(root.resolve(name + "-plain").resolve("logs"));
        Path agentDir = Files.createDirectories(root.resolve(name + "-agent").resolve("logs"));
        String plain = Forked.start(root, name + "-plain", List.of("-Dlogback.configurationFile=" + config(plainDir, appenders)),
                cp, "dev.spool.agent.host.LogbackProbeHost", plainDir.toString(), String.valueOf(records)).awaitSuccess();
        String opts = "spool.log.level=debug" + (options == null ? "" : "," + options);
        Forked agent = Forked.start(root, name + "-agent", LogRouteIT.concat(Forked.agentArgs(opts),
                "-Dlogback.configurationFile=" + config(agentDir, appenders)), cp, "dev.spool.agent.host.LogbackProbeHost",
                agentDir.toString(), String.valueOf(records));
        String agentOut = agent.awaitSuccess();
        return new Runs(plainDir, agentDir, plain, agentOut, agent.err());
    }

    private static Path config(Path dir, Appenders appenders) throws Exception {
        String body = appenders.of(dir);
        StringBuilder refs = new StringBuilder();
        for (String line : body.split("\n")) {
            int at = line.indexOf("<appender name=\"");
            if (at >= 0) {
                String n = line.substring(at + 16, line.indexOf('"', at + 16));
                refs.append("<appender-ref ref=\"").append(n).append("\"/>");
            }
        }
        String xml = "<configuration>\n" + body + "  <root level=\"INFO\">" + refs + "</root>\n</configuration>\n";
        Path file = dir.getParent().resolve("logback.xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }
}
