package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.AtomicFiles;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several threads mutate the same and different files, alternating between buffered scopes and
 * write-through, while the flush timer and capacity wake-ups of the background flusher run and a reader reads along.
 * Afterwards every file parses and holds exactly the expected content.
 */
class ConcurrencyStressTest {
    static final int THREADS = 4;
    static final int ROUNDS = 160;
    static final int BURST = 20;

    @TempDir
    Path dir;

    @Test
    void shouldLoseNothingWithManyThreadsOnSameAndDifferentFiles() throws Exception {
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().capacity(2).flushIntervalMillis(3).build());
        Path shared = dir.resolve("shared.json");
        Path log = dir.resolve("log.json");
        SyncedMap.open(shared, buffer).put("nested", Map.of());
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    // each thread opens its own instances: sharing must come from the buffer
                    SyncedMap s = SyncedMap.open(shared, buffer);
                    SyncedList l = SyncedList.open(log, buffer);
                    SyncedMap own = SyncedMap.open(dir.resolve("own-" + id + ".json"), buffer);
                    for (int i = 0; i < ROUNDS; i++) {
                        boolean buffered = (i / BURST + id) % 2 == 0;
                        BufferScope scope = buffered ? buffer.openScope() : null;
                        try {
                            s.put("t" + id, i);
                            @SuppressWarnings("unchecked")
                            Map<String, Object> nested = (Map<String, Object>) s.get("nested");
                            nested.put("t" + id, i);
                            l.add("t" + id + "-" + i);
                            own.put("i", i);
                            own.putIfAbsent("log", List.of());
                            @SuppressWarnings("unchecked")
                            List<Object> ownLog = (List<Object>) own.get("log");
                            ownLog.add(i);
                        } finally {
                            if (scope != null) scope.close();
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "stress-" + t));
        }
        Thread reader = new Thread(() -> {
            ObjectMapper json = new ObjectMapper();
            SyncedMap s = SyncedMap.open(shared, buffer);
            try {
                while (!done.get()) {
                    assertTrue(s.size() >= 1);
                    byte[] b = buffer.readBuffered(shared);
                    if (b != null) assertTrue(json.readValue(b, Map.class).containsKey("nested"));
                    if (Files.exists(shared)) json.readValue(shared.toFile(), Map.class); // always parses
                }
            } catch (Throwable e) {
                errors.add(e);
            }
        }, "stress-reader");
        threads.forEach(Thread::start);
        reader.start();
        start.countDown();
        for (Thread t : threads) t.join(120_000);
        done.set(true);
        reader.join(10_000);
        buffer.close();
        if (!errors.isEmpty()) {
            AssertionError e = new AssertionError(errors.size() + " thread(s) failed");
            errors.forEach(e::addSuppressed);
            throw e;
        }

        ObjectMapper json = new ObjectMapper();
        Map<String, Object> expectedShared = new LinkedHashMap<>();
        Map<String, Object> expectedNested = new LinkedHashMap<>();
        for (int t = 0; t < THREADS; t++) {
            expectedShared.put("t" + t, ROUNDS - 1);
            expectedNested.put("t" + t, ROUNDS - 1);
        }
        expectedShared.put("nested", expectedNested);
        assertEquals(expectedShared, json.readValue(shared.toFile(), Map.class));

        List<String> expectedLog = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) for (int i = 0; i < ROUNDS; i++) expectedLog.add("t" + t + "-" + i);
        @SuppressWarnings("unchecked")
        List<String> actualLog = new ArrayList<>(json.readValue(log.toFile(), List.class));
        Collections.sort(expectedLog);
        Collections.sort(actualLog);
        assertEquals(expectedLog, actualLog);

        List<Integer> all = IntStream.range(0, ROUNDS).boxed().toList();
        for (int t = 0; t < THREADS; t++) {
            assertEquals(Map.of("i", ROUNDS - 1, "log", all),
                    json.readValue(dir.resolve("own-" + t + ".json").toFile(), Map.class));
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> stray = s.filter(p -> AtomicFiles.isTempFile(p) || p.toString().contains("spool-conflict")).toList();
            assertEquals(List.of(), stray);
        }
        assertEquals(0, buffer.metrics().conflicts());
    }
}
