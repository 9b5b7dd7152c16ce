package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's own Jackson behaves the same plain and with the agent (issue 10, items 7–12): the
 * probes of {@code JacksonProbeHost} print the same lines in both runs, and after exit both folders
 * hold the same files with the same bytes (no conflict file, nothing missing).
 */
class JacksonProbeIT {
    @TempDir
    Path root;

    @Test
    void shouldObserveTheSameJacksonBehaviourPlainAndWithTheAgent() throws Exception {
        String cp = Forked.hostClassPath(Forked.jackson());
        Path plain = root.resolve("plain");
        Path agent = root.resolve("agent");
        String plainOut = Forked.start(root, "plain", List.of(), cp, "dev.spool.agent.host.JacksonProbeHost",
                plain.toString()).awaitSuccess();
        // a timed flush every 5 s: none runs between the nested probe's write and read (the first
        // probe), and the probes that await the bound still see it pass
        String agentOut = Forked.start(root, "agent", Forked.agentArgs("spool.buffer.flush.interval=5000"), cp, "dev.spool.agent.host.JacksonProbeHost",
                agent.toString()).awaitSuccess();
        assertTrue(plainOut.contains("probes done"), plainOut);
        assertEquals(plainOut, agentOut, "the probes saw something different with the agent");
        assertEquals(tree(plain), tree(agent), "the folders differ after exit");
    }

    /** Relative path to content (and mode) of every file under {@code dir}. */
    private static Map<String, String> tree(Path dir) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString(), Files.readString(p) + " mode "
                        + Files.getAttribute(p, "unix:mode") + " uid " + Files.getAttribute(p, "unix:uid"));
            }
        }
        return files;
    }
}
