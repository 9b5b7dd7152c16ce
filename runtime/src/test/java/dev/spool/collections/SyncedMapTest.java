package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write-through mode: every change is on disk when the call returns. */
class SyncedMapTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        buffer.close();
    }

    static Object disk(Path f) throws IOException {
        return JSON.readValue(f.toFile(), Object.class);
    }

    record Point(int x, int y) {}

    public static final class Pojo {
        public String name = "p";
        public int[] values = {1, 2};
    }

    @Test
    void shouldReadAMissingFileAsEmptyAndWriteEveryChangeThrough() throws IOException {
        Path f = dir.resolve("m.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        assertTrue(m.isEmpty());
        assertFalse(Files.exists(f));
        m.put("a", 1);
        assertEquals(Map.of("a", 1), disk(f));
        m.put("b", "two");
        m.remove("a");
        assertEquals(Map.of("b", "two"), disk(f));
        assertEquals(0, buffer.metrics().entries(), "write-through leaves nothing buffered");
    }

    @Test
    void shouldSeeChangesMadeOnDiskByOthers() throws IOException {
        Path f = dir.resolve("o.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        m.put("a", 1);
        Files.writeString(f, "{\"a\":1,\"other\":true}");
        assertEquals(true, m.get("other"));
        m.put("b", 2);
        assertEquals(Map.of("a", 1, "other", true, "b", 2), disk(f));
    }

    @Test
    void shouldWriteNestedChangesThroughTheRootsFile() throws IOException {
        Path f = dir.resolve("n.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        m.put("job", Map.of("stats", Map.of("steps", 1), "tags", List.of("a")));
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) ((Map<String, Object>) m.get("job")).get("stats");
        stats.put("steps", 2);
        @SuppressWarnings("unchecked")
        List<Object> tags = (List<Object>) ((Map<String, Object>) m.get("job")).get("tags");
        tags.add("b");
        assertEquals(Map.of("job", Map.of("stats", Map.of("steps", 2), "tags", List.of("a", "b"))), disk(f));
        assertEquals(Map.of("job", Map.of("stats", Map.of("steps", 2), "tags", List.of("a", "b"))), m);
        m.remove("job");
        IllegalStateException gone = assertThrows(IllegalStateException.class, () -> stats.put("x", 1));
        assertTrue(gone.getMessage().contains("job"), gone.getMessage());
    }

    @Test
    void shouldCopyValuesInSoLaterChangesOfTheCallersObjectDoNotLeak() throws IOException {
        Path f = dir.resolve("c.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        Map<String, Object> mine = new HashMap<>();
        mine.put("k", new ArrayList<>(List.of(1)));
        m.put("v", mine);
        mine.put("k2", 2);
        assertEquals(Map.of("v", Map.of("k", List.of(1))), disk(f));
    }

    @Test
    void shouldConvertPrimitiveArraysRecordsAndPojos() throws IOException {
        Path f = dir.resolve("conv.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        m.put("ints", new int[] {1, 2});
        m.put("doubles", new double[] {0.5});
        m.put("chars", new char[] {'h', 'i'});
        m.put("point", new Point(3, 4));
        m.put("pojo", new Pojo());
        m.put("big", BigInteger.TEN.pow(30));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("ints", List.of(1, 2));
        expected.put("doubles", List.of(0.5));
        expected.put("chars", "hi");
        expected.put("point", Map.of("x", 3, "y", 4));
        expected.put("pojo", Map.of("name", "p", "values", List.of(1, 2)));
        expected.put("big", BigInteger.TEN.pow(30));
        assertEquals(expected, disk(f));
        assertEquals(expected, m.copy());
    }

    @Test
    void shouldRefuseNonStringKeysNaNAndUnconvertibleValuesNamingTheKeyPathAndWritingNothing() throws IOException {
        Path f = dir.resolve("r.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        m.put("nested", Map.of("inner", Map.of()));
        String before = Files.readString(f);
        @SuppressWarnings("unchecked")
        Map<String, Object> inner = (Map<String, Object>) ((Map<String, Object>) m.get("nested")).get("inner");

        IllegalArgumentException e1 = assertThrows(IllegalArgumentException.class,
                () -> inner.put("bad", Map.of(7, "seven")));
        assertTrue(e1.getMessage().contains("nested.inner.bad") && e1.getMessage().contains("7"), e1.getMessage());
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> inner.put("nan", List.of(1.0, Double.NaN)));
        assertTrue(e2.getMessage().contains("nested.inner.nan[1]"), e2.getMessage());
        IllegalArgumentException e3 = assertThrows(IllegalArgumentException.class,
                () -> m.put("thing", Map.of("o", new Object())));
        assertTrue(e3.getMessage().contains("thing.o"), e3.getMessage());
        IllegalArgumentException e4 = assertThrows(IllegalArgumentException.class,
                () -> m.put("inf", Float.POSITIVE_INFINITY));
        assertTrue(e4.getMessage().contains("inf"), e4.getMessage());
        Map<Object, Object> raw = new HashMap<>();
        raw.put(1, 1);
        @SuppressWarnings({"unchecked", "rawtypes"})
        IllegalArgumentException e5 = assertThrows(IllegalArgumentException.class, () -> m.putAll((Map) raw));
        assertTrue(e5.getMessage().contains("1 (Integer)"), e5.getMessage());
        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("self", cyclic);
        assertThrows(IllegalArgumentException.class, () -> m.put("cycle", cyclic));
        assertEquals(before, Files.readString(f));
    }

    @Test
    void shouldRefuseAFileWhoseTopLevelIsAnArray() throws IOException {
        Path f = dir.resolve("arr.json");
        Files.writeString(f, "[1]");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SyncedMap.open(f, buffer));
        assertTrue(e.getMessage().contains("arr.json") && e.getMessage().contains("array"), e.getMessage());
        assertEquals("[1]", Files.readString(f));
    }

    @Test
    void shouldSupportPutIfAbsentAndMapViews() throws IOException {
        Path f = dir.resolve("v.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        assertNull(m.putIfAbsent("a", 1));
        assertEquals(1, m.putIfAbsent("a", 2));
        m.putAll(Map.of("b", 2));
        assertEquals(List.of("a", "b"), new ArrayList<>(m.keySet()));
        assertTrue(m.containsValue(2));
        assertThrows(UnsupportedOperationException.class, () -> m.entrySet().clear());
        m.clear();
        assertEquals(Map.of(), disk(f));
    }
}
