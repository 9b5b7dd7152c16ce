package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that lists its log folder, checks which archives exist and reads them right after logging
 * (Logback's own {@code TimeBasedRollingWithConfigFileTest#timeAndSize}) sees what plain Logback
 * leaves: with the agent, a size-and-time rolling appender's rolls happen on Spool's writer thread
 * ({@code RollingCheck}), so a look at the appender's folder first writes what it captured
 * ({@code RoutedLogReads}). Before that, only a read of the active file did, and the listing and the
 * existence checks lagged behind the rolls.
 */
class LogReadArchiveIT {

    static final int EVENTS = 400;

    @TempDir
    Path root;

    @Test
    void shouldSeeEveryRolledArchiveWhenTheHostLooksAtTheFolderRightAfterLogging() throws Exception {
        String plain = start("plain", List.of()).awaitSuccess();
        Forked routed = start("agent", Forked.agentArgs("spool.log.level=debug"));
        String agent = routed.awaitSuccess();
        assertTrue(plain.contains("read " + EVENTS + " lines"), plain);
        assertTrue(plain.contains((EVENTS - 1) + " listed 1") || plain.matches("(?s).*" + (EVENTS - 1) + " exist [1-9].*"), plain);
        assertTrue(routed.err().contains("routing " + root.resolve("agent").resolve("app.log")), routed.err());
        assertEquals(plain, agent, "the agent's host saw the archives plain's saw: " + routed.err());
    }

    private Forked start(String name, List<String> agentArgs) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        Path config = root.resolve(name + ".xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"ROLLING\" class=\"ch.qos.logback.core.rolling.RollingFileAppender\">\n"
                + "    <file>" + dir.resolve("app.log") + "</file>\n"
                + "    <rollingPolicy class=\"ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy\">\n"
                + "      <fileNamePattern>" + dir.resolve("arch-%d{yyyy-MM-dd}.%i") + "</fileNamePattern>\n"
                + "      <maxFileSize>150</maxFileSize>\n"
                + "    </rollingPolicy>\n"
                + "    <encoder><pattern>%msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"ROLLING\"/></root>\n"
                + "</configuration>\n", StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(agentArgs);
        jvm.add("-Dlogback.configurationFile=" + config);
        return Forked.start(root, name, jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.LogReadArchiveHost", dir.toString(), String.valueOf(EVENTS));
    }
}
