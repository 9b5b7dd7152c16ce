package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jackson writes under the agent: a host bundling Jackson 2.15 (the agent shades 2.21) writes the
 * same bytes with and without the agent; its writes are held in memory (reads served from there)
 * until a flush; after {@code flush} is reported, {@code kill -9} loses nothing.
 */
class JsonRouteIT {

    @TempDir
    Path root;

    @Test
    void shouldWriteIdenticalJsonAndSurviveKillAfterFlush() throws Exception {
        String cp = Forked.hostClassPath(Forked.jackson());
        Path plain = root.resolve("plain");
        Path routed = root.resolve("agent");
        Forked.start(root, "plain", List.of(), cp, "dev.spool.agent.host.JsonHost", plain.toString(), "6", "25")
                .awaitSuccess();

        try (Forked host = Forked.start(root, "agent", Forked.agentArgs("spool.buffer.flush.interval=0"), cp,
                "dev.spool.agent.host.JsonHost", routed.toString(), "6", "25", "hold")) {
            host.awaitOutput("written");
            // Held in memory: each document was created at its first write (step 0), its later steps are
            // not on disk yet; the excluded file is.
            assertTrue(Files.exists(routed.resolve("notes.txt")), "notes.txt is not buffered (include glob)");
            String doc0 = Files.readString(routed.resolve("doc-0.json"));
            assertTrue(doc0.contains("\"step\":0,"), "doc-0.json should hold its first write, later ones buffered: " + doc0);

            String status = Forked.cli(root, "status", "status", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(status.contains("com.fasterxml.jackson.databind.ObjectMapper"), status);
            String flushed = Forked.cli(root, "flush", "flush", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(flushed.contains("\"flushed\":true"), flushed);

            host.kill();
            assertEquals(137, host.process.exitValue(), "killed with SIGKILL");
        }
        Trees.assertSameFiles(plain, routed);
    }

    @Test
    void shouldWriteIdenticalJsonOnNormalExit() throws Exception {
        String cp = Forked.hostClassPath(Forked.jackson());
        Path plain = root.resolve("plain");
        Path routed = root.resolve("agent");
        Forked.start(root, "plain", List.of(), cp, "dev.spool.agent.host.JsonHost", plain.toString(), "4", "10")
                .awaitSuccess();
        Forked agent = Forked.start(root, "agent", Forked.agentArgs(null), cp, "dev.spool.agent.host.JsonHost",
                routed.toString(), "4", "10");
        agent.awaitSuccess();
        assertEquals(List.of(), Trees.spoolLines(agent.err()), "no problem reported");
        Trees.assertSameFiles(plain, routed);
    }
}
