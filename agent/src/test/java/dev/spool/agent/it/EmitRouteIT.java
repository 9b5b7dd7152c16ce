package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Emitter methods under the agent: each call of {@code EmitHost#emit(Map)} becomes one event; the
 * events (read back with the CLI's {@code cat}) equal, as JSON, the lines the method writes
 * without the agent. {@code route} skips the body, {@code tee} runs it too.
 */
class EmitRouteIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String METHOD = "spool.events.methods=dev.spool.agent.host.EmitHost#emit";

    @TempDir
    Path root;

    @Test
    void shouldRecordEachCallAsOneEventAndSurviveKillAfterFlush() throws Exception {
        Path plain = root.resolve("plain.jsonl");
        Path skipped = root.resolve("agent.jsonl");
        Path events = root.resolve("events.spool");
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.EmitHost",
                plain.toString(), "500").awaitSuccess();
        try (Forked host = Forked.start(root, "agent", Forked.agentArgs(METHOD + ",spool.events.file=" + events),
                Forked.hostClassPath(), "dev.spool.agent.host.EmitHost", skipped.toString(), "500", "hold")) {
            host.awaitOutput("written");
            String flushed = Forked.cli(root, "flush", "flush", String.valueOf(host.pid()), "--json").awaitSuccess();
            assertTrue(flushed.contains("\"flushed\":true"), flushed);
            host.kill();
        }
        assertEquals(0, Files.size(skipped), "route skips the method body");
        assertEquals(jsonLines(Files.readAllLines(plain)), events(events));
    }

    @Test
    void shouldRunTheBodyToo_whenModeIsTee() throws Exception {
        Path plain = root.resolve("plain.jsonl");
        Path teed = root.resolve("agent.jsonl");
        Path events = root.resolve("events.spool");
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.EmitHost",
                plain.toString(), "200").awaitSuccess();
        Forked.start(root, "agent", Forked.agentArgs(METHOD + ",spool.events.methods.mode=tee,spool.events.file=" + events),
                Forked.hostClassPath(), "dev.spool.agent.host.EmitHost", teed.toString(), "200").awaitSuccess();
        assertEquals(Files.readString(plain), Files.readString(teed), "tee runs the body");
        assertEquals(jsonLines(Files.readAllLines(plain)), events(events));
    }

    private static List<JsonNode> events(Path file) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        try (EventReader reader = EventReader.open(file)) {
            for (EventRecord record : reader) {
                nodes.add(record.value());
            }
            assertTrue(reader.sound(), "event file sound: " + reader.problems());
        }
        return nodes;
    }

    private static List<JsonNode> jsonLines(List<String> lines) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : lines) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }
}
