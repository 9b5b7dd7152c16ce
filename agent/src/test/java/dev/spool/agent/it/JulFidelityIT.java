package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JUL {@code FileHandler} probes (issue 10, items 3 to 6): the same host plain and with the agent,
 * in forked JVMs, compared by what the host observes and what ends up in the file.
 */
class JulFidelityIT {

    @TempDir
    Path root;

    @Test
    void shouldHaveEachRecordInTheFileWhenPublishReturns_underExactVisibility() throws Exception {
        String plain = run("plain", null, "visibility");
        String agent = run("agent", "spool.events.visibility=exact", "visibility");
        assertEquals(lines(plain, "after"), lines(agent, "after"));
        assertTrue(agent.contains("visible "), agent);
    }

    @Test
    void shouldShowEveryRecordWithinTheBoundAndAfterTheHostsFlush_underBoundedVisibility() throws Exception {
        String plain = run("plain", null, "visibility");
        String agent = run("agent", "spool.events.visibility.max.ms=100", "visibility");
        assertEquals(lines(plain, "after flush"), lines(agent, "after flush"), "the host's own flush drains the sink");
        assertTrue(agent.contains("visible "), "the last record reaches the file without any flush: " + agent);
    }

    /**
     * JUL's cleanup at exit closes the handler (writing {@code </log>}) while the host's own
     * shutdown hook still logs: records the hook logs after the close are dropped by JUL itself
     * (plain too), but no byte the handler accepted may be lost, and the tail must be last.
     */
    @Test
    void shouldWriteTheFormattersTailAndTheHostsShutdownRecordsAtExit() throws Exception {
        for (String name : List.of("plain", "agent1", "agent2", "agent3")) {
            run(name, null, "tail");
            String xml = Files.readString(root.resolve(name).resolve("probe.log"));
            assertTrue(xml.endsWith("</log>\n"), name + ": the XMLFormatter's tail is written at exit, last: ..."
                    + xml.substring(Math.max(0, xml.length() - 200)));
            int records = xml.split("<record>", -1).length - 1;
            assertEquals(records, xml.split("</record>", -1).length - 1, name + ": no record is cut");
            assertTrue(records >= 10, name + ": the records logged before exit: " + records);
        }
    }

    /**
     * A full disk (a real 64 KiB tmpfs): the handler's {@code ErrorManager} is called as without
     * the agent, and {@code flush()} and {@code close()} return within the sink's bound instead of
     * retrying without end. Needs root for the mount (CI runs as root); skipped otherwise.
     */
    @Test
    void shouldCallTheErrorManagerAndReturnOnAFullDisk() throws Exception {
        for (String name : List.of("plain", "agent")) {
            Path disk = Files.createDirectories(root.resolve("disk-" + name));
            Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.toString())
                    .redirectErrorStream(true).start();
            org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0, "mounting a tmpfs needs root");
            try {
                List<String> jvm = name.equals("plain") ? List.of() : Forked.agentArgs(null);
                String out = Forked.start(root, name + "-fulldisk", jvm, Forked.hostClassPath(),
                        "dev.spool.agent.host.JulProbeHost", "fulldisk", disk.resolve("probe.log").toString()).awaitSuccess();
                assertTrue(out.contains("flushed\nclosed; ErrorManager called true\ndone"), name + ": " + out);
            } finally {
                new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
            }
        }
    }

    @Test
    void shouldInterleaveWithAnotherWriterAsPlain_underExactVisibility() throws Exception {
        run("plain", null, "other");
        run("agent", "spool.events.visibility=exact", "other");
        run("bounded", null, "other");
        String plain = Files.readString(root.resolve("plain").resolve("probe.log"));
        assertEquals("A1\nRAW1\nA2\nRAW2\n", plain);
        assertEquals(plain, Files.readString(root.resolve("agent").resolve("probe.log")));
        String bounded = Files.readString(root.resolve("bounded").resolve("probe.log"));
        assertEquals(plain.lines().sorted().collect(Collectors.toList()), bounded.lines().sorted().collect(Collectors.toList()),
                "bounded visibility: every line is there, the other writer's may come first (documented)");
    }

    private static String lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).collect(Collectors.joining("\n"));
    }

    /** Runs {@code JulProbeHost scenario <root>/<name>/probe.log}, with the agent unless {@code name} is "plain". */
    private String run(String name, String options, String scenario) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        List<String> jvm = name.equals("plain") ? List.of() : Forked.agentArgs(options);
        return Forked.start(root, name + "-" + scenario, jvm, Forked.hostClassPath(), "dev.spool.agent.host.JulProbeHost",
                scenario, dir.resolve("probe.log").toString()).awaitSuccess();
    }
}
