package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Emitter calls from the host's own shutdown hooks (issue 30, item 8): in {@code route} mode each is
 * an event in the file, whether the event file was opened before the JVM began to shut down
 * ({@code early}) or by the first hook's call ({@code late}). The JVM runs all hooks at once, so
 * Spool's own ones (the sink's drain) race the host's: the host runs several times.
 */
class EmitAtShutdownIT {

    private static final int RUNS = 4;

    @TempDir
    Path root;

    @ParameterizedTest(name = "event file opened {0}")
    @ValueSource(strings = {"early", "late"})
    void shouldRecordEveryEventEmittedFromTheHostsShutdownHooks(String when) throws Exception {
        Path plain = root.resolve("plain.jsonl");
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.ShutdownEmitHost",
                plain.toString(), when).awaitSuccess();
        List<String> expected = Files.readAllLines(plain).stream().sorted().toList();
        assertEquals(when.equals("early") ? 4 : 3, expected.size(), expected.toString());
        for (int run = 0; run < RUNS; run++) {
            Path events = root.resolve("events-" + run + ".spool");
            Path skipped = root.resolve("agent-" + run + ".jsonl");
            Forked agent = Forked.start(root, "agent-" + run, Forked.agentArgs("spool.events.methods="
                    + "dev.spool.agent.host.ShutdownEmitHost#emit,spool.events.file=" + events), Forked.hostClassPath(),
                    "dev.spool.agent.host.ShutdownEmitHost", skipped.toString(), when);
            agent.awaitSuccess();
            assertEquals(0, Files.size(skipped), "route skips the method body");
            assertEquals(expected, events(events), "run " + run + "\n" + agent.err());
            assertTrue(Trees.spoolLines(agent.err()).stream().noneMatch(l -> l.contains("event file")), agent.err());
        }
    }

    /** The events as the host's JSON lines would be, sorted (the hooks run at the same time). */
    private static List<String> events(Path file) throws Exception {
        List<String> lines = new ArrayList<>();
        if (!Files.exists(file)) {
            return lines;
        }
        try (EventReader reader = EventReader.open(file)) {
            for (EventRecord record : reader) {
                lines.add("{\"from\":\"" + record.value().get("from").asText() + "\"}");
            }
            assertTrue(reader.sound(), "event file sound: " + reader.problems());
        }
        lines.sort(null);
        return lines;
    }
}
