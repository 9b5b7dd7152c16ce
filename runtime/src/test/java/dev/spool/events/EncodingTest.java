package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncodingTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseANonStringKeyNamingItsPathAndWriteNothing() throws Exception {
        Path f = dir.resolve("k.spool");
        Map<Object, Object> inner = new TreeMap<>();
        inner.put(42, "x");
        try (EventLog log = EventLog.open(f)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> log.emit(Map.of("a", List.of("ok", Map.of("b", inner)))));
            assertTrue(e.getMessage().contains("$.a[1].b"), e.getMessage());
            assertTrue(e.getMessage().contains("42"), e.getMessage());
            log.emit("next");
        }
        try (EventReader r = EventReader.open(f)) {
            assertEquals(1, r.scan());
        }
    }

    @Test
    void shouldKeepNumberTypesExactlyAsJson() {
        Object[] values = {Integer.MAX_VALUE, Long.MIN_VALUE, 0.1, 0.1f, new BigInteger("123456789012345678901234567890"),
            new BigDecimal("1.2300"), (short) 7, (byte) -1, 'c', new int[] {1, -2}, new float[] {0.5f},
            new short[] {3}, new long[] {1L << 50}, new byte[] {1, 2, 3}, new boolean[] {true}, "é"};
        for (Object v : values) {
            String expected = jsonOf(v);
            String actual = EventCodec.decode(java.nio.ByteBuffer.wrap(EventCodec.encode(v))).toString();
            assertEquals(expected, actual, "value of " + v.getClass().getSimpleName());
        }
    }

    private static String jsonOf(Object v) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(v);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A bean whose getter emits another event while Jackson converts it. */
    public static final class Reentrant {
        private final EventLog log;

        Reentrant(EventLog log) {
            this.log = log;
        }

        public String getName() {
            log.emit("inner");
            return "outer";
        }
    }

    @Test
    void shouldKeepBothEventsWhenAGetterEmitsDuringConversion() throws Exception {
        Path f = dir.resolve("r.spool");
        try (EventLog log = EventLog.open(f)) {
            log.emit(List.of("before", new Reentrant(log)));
        }
        List<String> got = new java.util.ArrayList<>();
        try (EventReader r = EventReader.open(f)) {
            r.forEach(rec -> got.add(rec.value().toString()));
            assertTrue(r.sound(), () -> r.problems().toString());
        }
        assertEquals(List.of("\"inner\"", "[\"before\",{\"name\":\"outer\"}]"), got);
    }

    @Test
    void shouldCountAnUnconvertibleEventAsAnErrorWithoutThrowing() throws Exception {
        Path f = dir.resolve("u.spool");
        try (EventLog log = EventLog.open(f)) {
            log.emit(new Object());   // Jackson: no properties, cannot be converted
            log.emit("fine");
            log.flush();
            assertEquals(1, log.metrics().errors());
            assertTrue(log.metrics().lastError().contains("java.lang.Object"));
        }
        try (EventReader r = EventReader.open(f)) {
            assertEquals(1, r.scan());
        }
        assertTrue(Files.size(f) > 16);
    }
}
