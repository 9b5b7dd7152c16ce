package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncedListTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        buffer.close();
    }

    static Object disk(Path f) throws IOException {
        return new ObjectMapper().readValue(f.toFile(), Object.class);
    }

    @Test
    void shouldBehaveAsAListAndWriteThrough() throws IOException {
        Path f = dir.resolve("l.json");
        SyncedList l = SyncedList.open(f, buffer);
        l.add(1);
        l.add("two");
        l.add(0, 0);
        l.addAll(List.of(3, 4));
        l.set(4, 40);
        l.remove(Integer.valueOf(3));
        assertEquals(List.of(0, 1, "two", 40), disk(f));
        assertEquals(List.of(0, 1, "two", 40), l);
        assertEquals(2, l.indexOf("two"));
        assertTrue(l.contains(40));
        assertEquals(List.of(0, 1, "two", 40), new ArrayList<>(l));
        l.sort((a, b) -> a.toString().compareTo(b.toString()));
        assertEquals(List.of(0, 1, 40, "two"), disk(f));
    }

    @Test
    void shouldGiveLiveViewsOfNestedValues() throws IOException {
        Path f = dir.resolve("n.json");
        SyncedList l = SyncedList.open(f, buffer);
        l.add(Map.of("steps", List.of()));
        try (BufferScope s = buffer.openScope()) {
            @SuppressWarnings("unchecked")
            List<Object> steps = (List<Object>) ((Map<String, Object>) l.get(0)).get("steps");
            for (int i = 0; i < 5; i++) steps.add(i);
            assertEquals(List.of(Map.of("steps", List.of())), disk(f), "nothing written inside the scope");
        }
        assertEquals(List.of(Map.of("steps", List.of(0, 1, 2, 3, 4))), disk(f));
    }

    @Test
    void shouldRefuseAFileWhoseTopLevelIsAnObject() throws IOException {
        Path f = dir.resolve("o.json");
        Files.writeString(f, "{}");
        assertThrows(IllegalStateException.class, () -> SyncedList.open(f, buffer));
    }
}
