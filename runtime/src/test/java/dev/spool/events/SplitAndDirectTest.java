package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Payloads just under, at and over the direct threshold and the record maximum; one 80 MB array. */
class SplitAndDirectTest {
    private static final int DIRECT = 1000;
    private static final int RECORD_MAX = 3000;

    @TempDir
    Path dir;

    /** A string event whose encoded payload is exactly {@code payload} bytes. */
    static String ofPayload(int payload) {
        for (int len = Math.max(0, payload - 6); len <= payload; len++) {
            String s = "x".repeat(len);
            if (EventCodec.encode(s).length == payload) {
                return s;
            }
        }
        throw new IllegalStateException("no string encodes to " + payload + " bytes");
    }

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldWriteDirectAndSplitAroundBothThresholdsInOrder(SinkType type) throws Exception {
        Path f = dir.resolve("t.spool");
        int[] sizes = {DIRECT - 1, DIRECT, DIRECT + 1, RECORD_MAX - 1, RECORD_MAX, RECORD_MAX + 1,
            2 * RECORD_MAX, 2 * RECORD_MAX + 1, 10 * RECORD_MAX + 7};
        long expectDirect = 0;
        long expectSplit = 0;
        List<String> emitted = new ArrayList<>();
        SinkSettings s = SinkSettings.builder().type(type).bufferBytes(4096).directThreshold(DIRECT)
                .recordMax(RECORD_MAX).build();
        try (EventLog log = EventLog.open(f, s)) {
            for (int size : sizes) {
                String big = ofPayload(size);
                log.emit("before " + size);
                log.emit(big);
                emitted.add("before " + size);
                emitted.add(big);
                if (size > RECORD_MAX) {
                    expectSplit++;
                    for (int off = 0; off < size; off += RECORD_MAX) {
                        expectDirect += Math.min(RECORD_MAX, size - off) >= DIRECT ? 1 : 0;
                    }
                } else if (size >= DIRECT) {
                    expectDirect++;
                }
            }
            log.flush();
            assertEquals(expectDirect, log.metrics().directWrites(), "direct writes");
            assertEquals(expectSplit, log.metrics().splitRecords(), "split records");
        }
        List<String> read = new ArrayList<>();
        List<Integer> parts = new ArrayList<>();
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                read.add(rec.value().textValue());
                parts.add(rec.parts());
            }
            assertTrue(r.sound(), () -> r.problems().toString());
        }
        assertEquals(emitted, read);
        for (int i = 0; i < sizes.length; i++) {
            int expectParts = sizes[i] > RECORD_MAX ? (sizes[i] + RECORD_MAX - 1) / RECORD_MAX : 1;
            assertEquals(expectParts, parts.get(2 * i + 1), "parts of a " + sizes[i] + "-byte payload");
        }
    }

    @Test
    void shouldReportASplitRecordWithAMissingPartAsIncompleteAndNotMergeIt() throws Exception {
        Path f = dir.resolve("m.spool");
        SinkSettings s = SinkSettings.builder().recordMax(100).build();
        try (EventLog log = EventLog.open(f, s)) {
            log.emit("first");
            log.emit(ofPayload(250));  // parts of 100, 100, 50
            log.emit("last");
        }
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        int first = RecordDescriptor.FILE_HEADER_LENGTH;
        int part0 = first + all.getInt(first);
        int part1 = part0 + all.getInt(part0);
        int part1Len = all.getInt(part1);
        byte[] cut = new byte[all.limit() - part1Len];
        all.get(0, cut, 0, part1);
        all.get(part1 + part1Len, cut, part1, all.limit() - part1 - part1Len);
        Files.write(f, cut);
        List<String> read = new ArrayList<>();
        try (EventReader r = EventReader.open(f)) {
            for (EventRecord rec : r) {
                read.add(rec.value().textValue());
            }
            assertFalse(r.sound());
            assertEquals(ReadProblem.Kind.INCOMPLETE, r.problems().get(0).kind());
            assertEquals(part0, r.problems().get(0).offset());
        }
        assertEquals(List.of("first", "last"), read);
    }

    @Test
    void shouldWriteAnEightyMegabyteDoubleArrayAsOneTypedBlock() throws Exception {
        Path f = dir.resolve("big.spool");
        double[] a = new double[10_000_000];
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 0.5;
        }
        try (EventLog log = EventLog.open(f)) {
            log.emit(Map.of("mass", a));
            log.emit("after");
            log.flush();
            assertEquals(1, log.metrics().splitRecords());
            assertEquals(5, log.metrics().directWrites());
        }
        long size = Files.size(f);
        assertTrue(size < 80_000_000L + 1000, "packed, not text: " + size + " bytes");
        try (EventReader r = EventReader.open(f)) {
            List<JsonNode> got = new ArrayList<>();
            r.forEach(rec -> got.add(rec.value()));
            assertTrue(r.sound(), () -> r.problems().toString());
            assertEquals(2, got.size());
            JsonNode mass = got.get(0).get("mass");
            assertEquals(a.length, mass.size());
            for (int i = 0; i < a.length; i += 99_991) {
                assertEquals(a[i], mass.get(i).doubleValue());
            }
            assertEquals(a[a.length - 1], mass.get(a.length - 1).doubleValue());
            assertEquals("after", got.get(1).textValue());
        }
    }
}
