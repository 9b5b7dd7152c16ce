package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files: truncation at every offset and a flip of every bit of a small file. Whatever
 * the damage, no exception escapes the reader, every record wholly before the damage is read
 * back intact, and the damage is reported (unless a cut falls exactly on a frame boundary).
 */
class CorruptionTest {
    private static final int EVENTS = 6;

    @TempDir
    Path dir;

    private byte[] original;
    private final List<Long> frameEnds = new ArrayList<>();
    private final List<JsonNode> values = new ArrayList<>();

    @BeforeEach
    void writeSmallFile() throws Exception {
        Path f = dir.resolve("small.spool");
        try (EventLog log = EventLog.open(f)) {
            for (int i = 0; i < EVENTS; i++) {
                log.emit(Map.of("i", i, "s", "v" + i));
            }
        }
        original = Files.readAllBytes(f);
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                values.add(rec.value());
                frameEnds.add(-1L);
            }
            for (int i = 0; i < values.size(); i++) {
                long next = i + 1 < values.size() ? offsets(r).get(i + 1) : original.length;
                frameEnds.set(i, next);
            }
        }
        assertEquals(EVENTS, values.size());
    }

    private static List<Long> offsets(EventReader r) {
        List<Long> o = new ArrayList<>();
        for (EventRecord rec : r) {
            o.add(rec.offset());
        }
        return o;
    }

    private List<EventRecord> read(byte[] content, List<ReadProblem> problems) throws Exception {
        Path f = dir.resolve("damaged.spool");
        Files.write(f, content);
        List<EventRecord> out = new ArrayList<>();
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                out.add(rec);
            }
            problems.addAll(r.problems());
        }
        return out;
    }

    @Test
    void shouldReadEveryWholeRecordBeforeATruncationAtAnyOffset() throws Exception {
        for (int cut = 0; cut < original.length; cut++) {
            byte[] damaged = java.util.Arrays.copyOf(original, cut);
            List<ReadProblem> problems = new ArrayList<>();
            List<EventRecord> got = read(damaged, problems);
            int whole = 0;
            while (whole < EVENTS && frameEnds.get(whole) <= cut) {
                whole++;
            }
            assertEquals(whole, got.size(), "records before a cut at " + cut);
            for (int i = 0; i < whole; i++) {
                assertEquals(values.get(i), got.get(i).value(), "record " + i + " with a cut at " + cut);
            }
            boolean onBoundary = cut == RecordDescriptor.FILE_HEADER_LENGTH || frameEnds.contains((long) cut);
            assertEquals(!onBoundary, !problems.isEmpty(), "problem reported for a cut at " + cut + ": " + problems);
            if (!problems.isEmpty()) {
                assertEquals(whole, problems.get(0).goodBefore());
            }
        }
    }

    @Test
    void shouldSkipOnlyTheRecordWithAFlippedBit() throws Exception {
        for (int at = 0; at < original.length; at++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] damaged = original.clone();
                damaged[at] ^= (byte) (1 << bit);
                List<ReadProblem> problems = new ArrayList<>();
                List<EventRecord> got = read(damaged, problems);
                assertFalse(problems.isEmpty(), "a flip at " + at + "." + bit + " went unnoticed");
                if (at < RecordDescriptor.FILE_HEADER_LENGTH) {
                    assertEquals(ReadProblem.Kind.BAD_FILE_HEADER, problems.get(0).kind());
                    continue;
                }
                int hit = 0;
                while (frameEnds.get(hit) <= at) {
                    hit++;
                }
                List<JsonNode> expected = new ArrayList<>(values);
                expected.remove(hit);
                List<JsonNode> actual = new ArrayList<>();
                got.forEach(r -> actual.add(r.value()));
                assertEquals(expected, actual, "records around a flip at " + at + "." + bit);
                assertEquals(hit, problems.get(0).goodBefore());
                assertTrue(problems.get(0).offset() <= at);
            }
        }
    }
}
