package dev.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.collections.SyncedList;
import dev.spool.collections.SyncedMap;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime examples of README.md ("Using the runtime library"), run as tests. Each example sits
 * between {@code // tag::name[]} and {@code // end::name[]}; the last test checks that README.md
 * shows exactly these lines, so the README cannot drift from code that compiles and works.
 */
class ReadmeExamplesTest {

    static final Path README = Path.of("..", "README.md");
    static final Path SELF = Path.of("src", "test", "java", "dev", "spool", "ReadmeExamplesTest.java");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void shouldKeepAJsonFileMapWithNestedViews() throws IOException {
        // tag::map[]
        SyncedMap settings = SyncedMap.open(dir.resolve("settings.json"));
        settings.put("name", "run-7");                  // written now (write-through)
        settings.put("limits", Map.of("cpu", 4));
        Map<String, Object> limits = (Map<String, Object>) settings.get("limits"); // a live view
        limits.put("memoryMb", 512);                    // written through to settings.json
        // end::map[]
        JsonNode onDisk = JSON.readTree(dir.resolve("settings.json").toFile());
        assertEquals("run-7", onDisk.get("name").asText());
        assertEquals(4, onDisk.get("limits").get("cpu").asInt());
        assertEquals(512, onDisk.get("limits").get("memoryMb").asInt());
        assertEquals(512, ((Map<String, Object>) SyncedMap.open(dir.resolve("settings.json")).get("limits")).get("memoryMb"));
    }

    @Test
    void shouldWriteABufferedScopeOnceAtItsClose() throws IOException {
        Path file = dir.resolve("steps.json");
        // tag::scope[]
        SyncedList steps = SyncedList.open(dir.resolve("steps.json"));
        try (BufferScope scope = Spool.buffered()) {
            for (int i = 0; i < 1000; i++) {
                steps.add(Map.of("step", i));           // memory only
            }
        }                                               // one atomic write, here
        // end::scope[]
        JsonNode onDisk = JSON.readTree(file.toFile());
        assertEquals(1000, onDisk.size());
        assertEquals(999, onDisk.get(999).get("step").asInt());
    }

    @Test
    void shouldWriteAnEventLogAndReadItBack() throws IOException {
        // tag::events[]
        Path file = dir.resolve("run.spool");
        try (EventLog log = EventLog.open(file)) {
            log.emit(Map.of("step", 1, "mass", 1.5));
            log.emit(Map.of("step", 2, "mass", 2.5));
        }                                               // close() writes what is pending
        List<JsonNode> events = new ArrayList<>();
        try (EventReader reader = EventReader.open(file)) {
            for (EventRecord record : reader) {         // timestampMillis(), threadId(), value()
                events.add(record.value());
            }
            if (!reader.sound()) {                      // a torn or corrupt record was skipped
                System.err.println(reader.problems());
            }
        }
        // end::events[]
        assertEquals(2, events.size());
        assertEquals(1, events.get(0).get("step").asInt());
        assertEquals(2.5, events.get(1).get("mass").asDouble());
    }

    @Test
    void shouldShowInTheReadmeExactlyTheExamplesThisTestRuns() throws IOException {
        String readme = Files.readString(README);
        String self = Files.readString(SELF);
        Matcher tags = Pattern.compile("// tag::(\\w+)\\[\\]\\n(.*?)\\n\\s*// end::\\1\\[\\]", Pattern.DOTALL).matcher(self);
        int found = 0;
        while (tags.find()) {
            found++;
            String example = dedent(tags.group(2));
            assertTrue(readme.contains(example), "README.md lacks the example '" + tags.group(1) + "' as:\n" + example);
        }
        assertEquals(3, found, "tagged examples in " + SELF);
    }

    private static String dedent(String block) {
        List<String> lines = block.lines().toList();
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line.length() >= indent ? line.substring(indent) : line.strip()).append('\n');
        }
        return out.toString();
    }
}
