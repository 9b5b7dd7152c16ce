package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventLogRoundTripTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldReadBackEveryEventAsTheSameJson(SinkType type) throws Exception {
        Path file = dir.resolve("events.spool");
        List<Object> events = new ArrayList<>();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("step", 7);
        m.put("name", "größe ✓");
        m.put("mass", new double[] {1.5, -2.25, 0.0});
        m.put("ids", new long[] {1L << 40, -3});
        m.put("flags", List.of(true, false));
        m.put("nothing", null);
        m.put("nested", Map.of("x", 1.5f));
        events.add(m);
        events.add("just a string");
        events.add(42L);
        events.add(List.of(1, 2, 3));
        events.add(new Point(3, "p"));
        try (EventLog log = EventLog.open(file, SinkSettings.builder().type(type).build())) {
            for (Object e : events) {
                log.emit(e);
            }
        }
        List<JsonNode> read = new ArrayList<>();
        try (EventReader r = EventReader.open(file)) {
            for (EventRecord rec : r) {
                read.add(rec.value());
            }
            assertTrue(r.sound(), () -> r.problems().toString());
        }
        assertEquals(events.size(), read.size());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(JSON.writeValueAsString(events.get(i)), JSON.writeValueAsString(read.get(i)), "event " + i);
        }
        assertTrue(Files.size(file) > RecordDescriptor.FILE_HEADER_LENGTH);
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseAFileThatIsNotAnEventFileAndLeaveItUnchanged() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "my precious notes, not events");
        java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.io.UncheckedIOException.class, () -> EventLog.open(file));
        assertTrue(e.getMessage().contains("notes.txt"), e.getMessage());
        assertEquals("my precious notes, not events", Files.readString(file));
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseASecondWriterOnTheSameFile() throws Exception {
        Path file = dir.resolve("one-writer.spool");
        try (EventLog first = EventLog.open(file)) {
            first.emit("mine");
            java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.io.UncheckedIOException.class, () -> EventLog.open(file));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
        try (EventReader r = EventReader.open(file)) {
            assertEquals(1, r.scan());
        }
    }

    @org.junit.jupiter.api.Test
    void shouldAppendToAnExistingEventFile() throws Exception {
        Path file = dir.resolve("twice.spool");
        try (EventLog log = EventLog.open(file)) {
            log.emit("one");
        }
        try (EventLog log = EventLog.open(file, SinkSettings.builder().type(SinkType.MMAP).build())) {
            log.emit("two");
        }
        List<String> read = new ArrayList<>();
        try (EventReader r = EventReader.open(file)) {
            r.forEach(rec -> read.add(rec.value().textValue()));
            assertTrue(r.sound());
        }
        assertEquals(List.of("one", "two"), read);
    }

    /** A record, encoded through Jackson's tree. */
    record Point(int x, String label) {
    }
}
