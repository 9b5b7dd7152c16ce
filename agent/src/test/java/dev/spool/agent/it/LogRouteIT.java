package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log handlers under the agent: JUL {@code FileHandler} with size rotation and a Logback
 * {@code FileAppender} produce byte-identical files with and without the agent, their streams
 * being routed through the sink (status lists them); after a reported flush, {@code kill -9}
 * loses nothing.
 */
class LogRouteIT {

    @TempDir
    Path root;

    @Test
    void shouldWriteIdenticalRotatedJulFilesAndSurviveKillAfterFlush() throws Exception {
        String cp = Forked.hostClassPath();
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path routed = Files.createDirectories(root.resolve("agent"));
        // 3,000 records of ~60-100 bytes over 40 kB files x 4: several rotations, the oldest files dropped.
        Forked.start(root, "plain", List.of(), cp, "dev.spool.agent.host.JulHost",
                plain.resolve("app%g.log").toString(), "3000", "40000", "4").awaitSuccess();
        try (Forked host = Forked.start(root, "agent", Forked.agentArgs(null), cp, "dev.spool.agent.host.JulHost",
                routed.resolve("app%g.log").toString(), "3000", "40000", "4", "hold")) {
            host.awaitOutput("written");
            String status = Forked.cli(root, "status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(status.contains("app0.log"), "the active log file is routed: " + status);
            assertTrue(status.contains("java.util.logging.FileHandler$MeteredStream"), status);
            String flushed = Forked.cli(root, "flush", "flush", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(flushed.contains("\"flushed\":true"), flushed);
            host.kill();
        }
        // the killed run's journal of the bytes its formatter wrote (issue 33): everything was flushed, so none to replay
        String recovered = Forked.cli(root, "recover", "recover", routed.resolve("app0.log").toString()).awaitSuccess();
        assertTrue(recovered.contains(": 0 journaled JUL lines recovered"), recovered);
        Trees.assertSameFiles(plain, lockless(routed));
    }

    @Test
    void shouldLeaveJulAlone_whenItsSwitchIsOff() throws Exception {
        Path routed = Files.createDirectories(root.resolve("agent"));
        try (Forked host = Forked.start(root, "agent", Forked.agentArgs("spool.events.jul=false"), Forked.hostClassPath(),
                "dev.spool.agent.host.JulHost", routed.resolve("app%g.log").toString(), "100", "0", "1", "hold")) {
            host.awaitOutput("written");
            String status = Forked.cli(root, "status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(status.contains("\"routedStreams\":[]"), status);
            assertTrue(!status.contains("java.util.logging.FileHandler"), status);
            assertEquals(100, Files.readAllLines(routed.resolve("app0.log")).size(), "written by the handler itself");
        }
    }

    /** FileHandler leaves its .lck file behind when killed; it is not part of the log. */
    private static Path lockless(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".lck")) {
                    Files.delete(p);
                }
            }
        }
        return dir;
    }

    @Test
    void shouldWriteIdenticalLogbackFile() throws Exception {
        String cp = Forked.hostClassPath(Forked.logback());
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path routed = Files.createDirectories(root.resolve("agent"));
        Forked.start(root, "plain", List.of("-Dlogback.configurationFile=" + logbackConfig(plain)), cp,
                "dev.spool.agent.host.LogbackHost", "2000").awaitSuccess();
        Forked agent = Forked.start(root, "agent", concat(Forked.agentArgs("spool.log.level=debug"),
                "-Dlogback.configurationFile=" + logbackConfig(routed)), cp, "dev.spool.agent.host.LogbackHost", "2000");
        agent.awaitSuccess();
        assertTrue(agent.err().contains("routing " + routed.resolve("app.log") + " through the sink"), agent.describe());
        Files.delete(plain.resolve("logback.xml"));
        Files.delete(routed.resolve("logback.xml"));
        Trees.assertSameFiles(plain, routed);
        assertEquals(2000, Files.readAllLines(routed.resolve("app.log")).size());
    }

    @Test
    void shouldCaptureAJulToSlf4jToLogbackChainOncePerFile() throws Exception {
        String cp = Forked.hostClassPath("logback-classic.jar", "logback-core.jar", "slf4j-api.jar", "jul-to-slf4j.jar");
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path routed = Files.createDirectories(root.resolve("agent"));
        Forked.start(root, "plain", List.of("-Dlogback.configurationFile=" + logbackConfig(plain)), cp,
                "dev.spool.agent.host.BridgeChainHost", plain.toString(), "500").awaitSuccess();
        Forked agent = Forked.start(root, "agent", concat(Forked.agentArgs("spool.log.level=debug"),
                "-Dlogback.configurationFile=" + logbackConfig(routed)), cp, "dev.spool.agent.host.BridgeChainHost",
                routed.toString(), "500");
        agent.awaitSuccess();
        assertTrue(agent.err().contains("routing " + routed.resolve("app.log") + " through the sink"), agent.describe());
        assertTrue(agent.err().contains("routing " + routed.resolve("jul.log") + " through the sink"), agent.describe());
        for (Path dir : List.of(plain, routed)) {
            Files.delete(dir.resolve("logback.xml"));
        }
        Trees.assertSameFiles(plain, routed);
        assertEquals(500, Files.readAllLines(routed.resolve("app.log")).size());
        assertEquals(500, Files.readAllLines(routed.resolve("jul.log")).size());
    }

    /** A Logback configuration in {@code dir}: one FileAppender to {@code dir/app.log}, level INFO. */
    static Path logbackConfig(Path dir) throws Exception {
        return logbackConfig(dir, dir);
    }

    /** The same configuration written in {@code confDir}, its appender writing {@code logDir/app.log}. */
    static Path logbackConfig(Path confDir, Path logDir) throws Exception {
        String xml = "<configuration>\n"
                + "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + logDir.resolve("app.log") + "</file>\n"
                + "    <encoder><pattern>%level %logger %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"FILE\"/></root>\n"
                + "</configuration>\n";
        Path file = confDir.resolve("logback.xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }

    static List<String> concat(List<String> a, String... b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }
}
