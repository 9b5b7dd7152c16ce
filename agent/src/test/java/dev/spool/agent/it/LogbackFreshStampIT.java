package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, found by the time-based rolling kill test (seed 46: a round's first second of events,
 * 13,842 of 209,155, replaced by the next start's first roll): an empty Logback file stamped in the
 * previous second, as a roll right after a second's boundary creates it, keeps that stamp under plain
 * Logback only until its first write a few ms later, but under the agent until the sink's first write
 * (up to the visibility bound): a kill in between made the next start name the file after the previous
 * second and its first roll replace that second's archive. Spool's start of routing now gives such a
 * file the wall clock's time ({@code FreshLogStamp}); the host halts right after its appender's start.
 */
class LogbackFreshStampIT {
    private static final Pattern OUT = Pattern.compile("stamp (\\d+) start (\\d+) second (\\d+)\\s*");

    @TempDir
    Path dir;

    @Test
    void shouldStampAFileARollJustCreatedWithTheWallClockBeforeItsFirstWrite() throws Exception {
        long[] plain = run("plain", List.of());
        assertEquals(plain[2] - 1, plain[0], "plain Logback leaves the stamp until its first write");
        long[] agent = run("agent", Forked.agentArgs("spool.events.visibility.max.ms=60000"));
        assertTrue(agent[0] >= agent[1], "the file's stamp after the start of routing (" + agent[0]
                + ") is the wall clock's, not the previous second's (" + (agent[2] - 1) + "), start " + agent[1]);
    }

    private long[] run(String name, List<String> jvm) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        String out = Forked.start(dir, name, jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.LogbackStampHost", folder.toString()).awaitSuccess();
        Matcher m = OUT.matcher(out);
        assertTrue(m.matches(), name + ": " + out);
        assertEquals(0, Files.size(folder.resolve("app.log")), name + ": nothing written");
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }
}
