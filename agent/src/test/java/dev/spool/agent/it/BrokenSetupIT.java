package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Broken setups: the host always completes, and each problem is reported in exactly one {@code [spool]} line. */
class BrokenSetupIT {

    @TempDir
    Path root;

    private static List<String> only(List<String> lines, String text) {
        return lines.stream().filter(l -> l.contains(text)).toList();
    }

    @Test
    void shouldReportABadConfigValueOnceAndUseTheDefault() throws Exception {
        Path plain = root.resolve("plain");
        Path routed = root.resolve("agent");
        String cp = Forked.hostClassPath(Forked.jackson());
        Forked.start(root, "plain", List.of(), cp, "dev.spool.agent.host.JsonHost", plain.toString(), "3", "5").awaitSuccess();
        Forked agent = Forked.start(root, "agent", Forked.agentArgs("spool.buffer.capacity=lots"), cp,
                "dev.spool.agent.host.JsonHost", routed.toString(), "3", "5");
        agent.awaitSuccess();
        List<String> lines = Trees.spoolLines(agent.err());
        assertEquals(1, lines.size(), agent.describe());
        assertTrue(lines.get(0).contains("spool.buffer.capacity") && lines.get(0).contains("lots"), lines.get(0));
        Trees.assertSameFiles(plain, routed);
    }

    @Test
    void shouldReportAnUnreadableConfigFileOnce() throws Exception {
        Path missing = root.resolve("no-such-dir").resolve("spool.properties");
        Forked agent = Forked.start(root, "agent", LogRouteIT.concat(Forked.agentArgs(null), "-Dspool.config=" + missing),
                Forked.hostClassPath(), "dev.spool.agent.host.PlainHost", root.resolve("hello.txt").toString());
        assertEquals("hello", agent.awaitSuccess().trim());
        List<String> lines = Trees.spoolLines(agent.err());
        assertEquals(1, lines.size(), agent.describe());
        assertTrue(lines.get(0).contains(missing.toString()) || lines.get(0).contains("spool.config"), lines.get(0));
    }

    @Test
    void shouldRunTheEmitterItselfWhenTheEventsFolderIsMissing() throws Exception {
        Path plain = root.resolve("plain.jsonl");
        Path routed = root.resolve("agent.jsonl");
        Path events = root.resolve("missing-folder").resolve("events.spool");
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.EmitHost",
                plain.toString(), "50").awaitSuccess();
        Forked agent = Forked.start(root, "agent",
                Forked.agentArgs("spool.events.methods=dev.spool.agent.host.EmitHost#emit,spool.events.file=" + events),
                Forked.hostClassPath(), "dev.spool.agent.host.EmitHost", routed.toString(), "50");
        agent.awaitSuccess();
        List<String> lines = Trees.spoolLines(agent.err());
        assertEquals(1, lines.size(), agent.describe());
        assertTrue(lines.get(0).contains("event file"), lines.get(0));
        assertEquals(Files.readString(plain), Files.readString(routed), "the emitter's own output instead");
    }

    @Test
    void shouldLetEveryWriteFailAtTheCallAsPlainWhenTheOutputFolderIsReadOnly() throws Exception {
        Path dir = Files.createDirectories(root.resolve("readonly"));
        ReadOnly readOnly = ReadOnly.make(dir);
        assumeTrue(readOnly != null, "cannot make a folder read-only here (root without chattr)");
        try {
            Forked agent = Forked.start(root, "agent", Forked.agentArgs("spool.buffer.flush.interval=50"),
                    Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.TolerantJsonHost", dir.toString(), "200");
            String out = agent.awaitSuccess();
            // a write into a folder the process cannot write is refused by the buffer (issue 10 item 8):
            // Jackson's own write runs and fails at every call, as without the agent; nothing to report
            assertEquals("done failures=200", out.trim(), agent.describe());
            List<String> lines = only(Trees.spoolLines(agent.err()), "doc.json");
            assertEquals(0, lines.size(), agent.describe());
            assertEquals(0, Trees.names(dir).size(), "nothing written into the read-only folder");
        } finally {
            readOnly.undo();
        }
    }
}
