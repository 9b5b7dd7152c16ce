package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * N producer threads × M events through small buffers (so buffers rotate thousands of times),
 * for both back ends and every policy. Checked: every event read back exactly once (under DROP:
 * at most once, and read + dropped = emitted), each thread's events in its emit order, the
 * file sound.
 */
class MultiProducerTest {
    private static final int THREADS = 4;
    private static final int EVENTS = 20_000;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (SinkType t : SinkType.values()) {
            for (SinkPolicy p : SinkPolicy.values()) {
                a.add(Arguments.of(t, p));
            }
        }
        return a.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void shouldReadEveryEventBackOnceInPerThreadOrder(SinkType type, SinkPolicy policy) throws Exception {
        Path file = dir.resolve(type + "-" + policy + ".spool");
        SinkSettings s = SinkSettings.builder().type(type).policy(policy).bufferBytes(4096).buffers(3).build();
        long dropped;
        try (EventLog log = EventLog.open(file, s)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    Map<String, Object> e = new HashMap<>();
                    try {
                        start.await();
                    } catch (InterruptedException ex) {
                        return;
                    }
                    for (int i = 0; i < EVENTS; i++) {
                        e.put("t", id);
                        e.put("i", i);
                        e.put("pad", i % 7 == 0 ? "x".repeat(i % 300) : "");
                        log.emit(e);
                    }
                });
                threads.add(th);
                th.start();
            }
            start.countDown();
            for (Thread th : threads) {
                th.join();
            }
            log.flush();
            SinkMetrics m = log.metrics();
            dropped = m.dropped();
            if (policy != SinkPolicy.DROP) {
                assertEquals(0, dropped);
            }
        }
        int[] next = new int[THREADS];
        long read = 0;
        try (EventReader r = EventReader.open(file)) {
            for (EventRecord rec : r) {
                JsonNode v = rec.value();
                int t = v.get("t").intValue();
                int i = v.get("i").intValue();
                assertTrue(i >= next[t], "thread " + t + " event " + i + " after " + (next[t] - 1));
                if (policy != SinkPolicy.DROP) {
                    assertEquals(next[t], i, "thread " + t + " lost or repeated an event");
                }
                next[t] = i + 1;
                read++;
            }
            assertTrue(r.sound(), () -> r.problems().toString());
        }
        assertEquals((long) THREADS * EVENTS, read + dropped, "read " + read + " + dropped " + dropped);
    }
}
