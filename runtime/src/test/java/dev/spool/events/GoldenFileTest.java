package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.SinkSettings;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the event format: the bytes written for a fixed set of events (fixed clock and thread
 * id) must equal the committed golden file, and the golden file must read back as those events.
 * A format change must be deliberate: regenerate with
 * {@code -Dspool.golden.update=runtime/src/test/resources/dev/spool/events/golden-v1.spool}
 * and explain it in docs/FORMAT.md.
 */
class GoldenFileTest {
    static final String RESOURCE = "golden-v1.spool";
    static final long CLOCK = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    static final long THREAD = 7;

    @TempDir
    Path dir;

    static List<Object> events() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("null", null);
        m.put("bool", true);
        m.put("int", -5);
        m.put("long", 1L << 40);
        m.put("float", 1.5f);
        m.put("double", 0.1);
        m.put("decimal", new BigDecimal("3.14"));
        m.put("text", "héllo");
        m.put("doubles", new double[] {1.0, -2.5});
        m.put("ints", new int[] {1, 2, 3});
        m.put("list", List.of("a", 1));
        List<Object> e = new ArrayList<>();
        e.add(m);
        e.add("x".repeat(40));        // staged in a buffer
        e.add("y".repeat(80));        // direct: payload 82 >= threshold 64
        e.add("z".repeat(150));       // split at record max 100: a direct part of 100, a staged part of 53
        return e;
    }

    private Path writeFresh(dev.spool.sink.SinkType type) {
        Path f = dir.resolve(type + "-" + RESOURCE);
        SinkSettings s = SinkSettings.builder().type(type).recordMax(100).directThreshold(64).build();
        try (EventLog log = EventLog.open(f, s, () -> CLOCK, () -> THREAD)) {
            for (Object e : events()) {
                log.emit(e);
            }
        }
        return f;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(dev.spool.sink.SinkType.class)
    void shouldWriteExactlyTheGoldenBytes(dev.spool.sink.SinkType type) throws Exception {
        byte[] fresh = Files.readAllBytes(writeFresh(type));
        String update = System.getProperty("spool.golden.update");
        if (update != null) {
            Files.write(Paths.get(update), fresh);
        }
        byte[] golden;
        try (InputStream in = GoldenFileTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, "golden file missing");
            golden = in.readAllBytes();
        }
        assertArrayEquals(golden, fresh, "the event format changed; see the class comment");
    }

    @Test
    void shouldReadTheGoldenFileBackAsTheEvents() throws Exception {
        Path f = dir.resolve("g.spool");
        try (InputStream in = GoldenFileTest.class.getResourceAsStream(RESOURCE)) {
            Files.copy(in, f);
        }
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<Object> expected = events();
        try (EventReader r = EventReader.open(f)) {
            int i = 0;
            for (EventRecord rec : r) {
                assertEquals(json.writeValueAsString(expected.get(i)), json.writeValueAsString(rec.value()));
                assertEquals(CLOCK, rec.timestampMillis());
                assertEquals(THREAD, rec.threadId());
                i++;
            }
            assertEquals(expected.size(), i);
            assertTrue(r.sound());
        }
    }
}
