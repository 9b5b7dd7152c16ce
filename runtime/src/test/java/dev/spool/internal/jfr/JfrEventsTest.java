package dev.spool.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushException;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import dev.spool.events.EventLog;
import dev.spool.sink.JournalLayout;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spool's JFR events as a recording in this JVM sees them (a {@link RecordingStream}): the buffer's
 * flushes, conflicts and write errors, the sink's write batches, periodic statistics and drops,
 * each with its fields; and none at all with the switch off.
 */
class JfrEventsTest {

    static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    final List<RecordedEvent> seen = new CopyOnWriteArrayList<>();
    RecordingStream stream;

    @BeforeEach
    void record() {
        SpoolJfr.setEnabled(true);
        stream = new RecordingStream();
        for (String type : List.of("BufferFlush", "Conflict", "WriteError", "SinkWrite", "SinkStatistics", "Drop", "JournalRecovery")) {
            stream.enable("dev.spool." + type).withPeriod(Duration.ofMillis(200));
        }
        stream.onEvent(seen::add);
        stream.startAsync();
    }

    @AfterEach
    void stop() {
        stream.close();
        SpoolJfr.setEnabled(true);
    }

    @Test
    void shouldRecordTheBuffersFlushesConflictsAndWriteErrors() throws Exception {
        SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        Path file = dir.resolve("doc.json");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        SyncedMap doc = SyncedMap.open(file, buffer);
        SyncedMap lost = SyncedMap.open(sub.resolve("x.json"), buffer);
        try (BufferScope scope = buffer.openScope()) {
            doc.put("a", 1);
            lost.put("b", 2);
            Files.delete(sub);
            Files.writeString(sub, "a file where the folder was");     // x.json cannot be written
            assertThrows(FlushException.class, buffer::flush);
            Files.writeString(file, "{\"someone\":\"else\"}");          // changed behind the buffer
            doc.put("a", 2);
            Files.delete(sub);
            Files.createDirectories(sub);
        }
        RecordedEvent flush = await("dev.spool.BufferFlush", e -> e.getInt("failures") == 1);
        assertEquals("explicit", flush.getString("trigger"));
        assertEquals(1, flush.getInt("files"));
        assertTrue(flush.getLong("bytes") > 0, flush.toString());
        RecordedEvent error = await("dev.spool.WriteError", e -> true);
        assertEquals("buffer", error.getString("component"));
        assertTrue(error.getString("path").endsWith("x.json"), error.toString());
        RecordedEvent conflict = await("dev.spool.Conflict", e -> true);
        assertTrue(conflict.getString("path").endsWith("doc.json"), conflict.toString());
        assertTrue(conflict.getString("conflictFile").contains("doc.json.spool-conflict-"), conflict.toString());
        buffer.close();
    }

    @Test
    void shouldRecordTheSinksWritesStatisticsAndDrops() throws Exception {
        Path file = dir.resolve("run.spool");
        SinkSettings slow = SinkSettings.builder().policy(SinkPolicy.DROP).bufferBytes(SinkSettings.MIN_BUFFER_BYTES)
                .buffers(SinkSettings.MIN_BUFFERS).maxBytesPerSecond(4096).build();
        try (EventLog log = EventLog.open(file, slow)) {
            for (int i = 0; i < 2000; i++) {
                log.emit(java.util.Map.of("i", i, "text", "an event of some length to fill the small buffers"));
            }
            await("dev.spool.SinkWrite", e -> true);
            await("dev.spool.Drop", e -> true);
            await("dev.spool.SinkStatistics", e -> e.getLong("dropped") > 0 && e.getLong("eventsWritten") > 0);
            // the fields from the recording file: a live stream may show a pooled string as N/A
            List<RecordedEvent> recorded = dumped();
            RecordedEvent write = first(recorded, "dev.spool.SinkWrite", e -> true);
            assertTrue(String.valueOf(write.getString("path")).endsWith("run.spool"), write.toString());
            assertTrue(write.getLong("records") > 0 && write.getLong("bytes") > 0, write.toString());
            RecordedEvent stats = first(recorded, "dev.spool.SinkStatistics",
                    e -> e.getLong("dropped") > 0 && e.getLong("eventsWritten") > 0);
            assertTrue(stats.getString("path").endsWith("run.spool"), stats.toString());
            assertTrue(stats.getLong("bytesWritten") > 0, stats.toString());
            RecordedEvent drop = first(recorded, "dev.spool.Drop", e -> String.valueOf(e.getString("path")).endsWith("run.spool"));
            assertEquals("DROP", drop.getString("policy"), drop.toString());
            assertTrue(drop.getLong("dropped") > 0, drop.toString());
            assertTrue(drop.getString("path").endsWith("run.spool"), drop.toString());
            log.metrics().setMaxBytesPerSecond(0);
        }
    }

    @Test
    void shouldEmitNothing_whenSwitchedOff() throws Exception {
        SpoolJfr.setEnabled(false);
        try (EventLog log = EventLog.open(dir.resolve("off.spool"))) {
            log.emit(java.util.Map.of("i", 1));
        }
        SpoolJfr.setEnabled(true);
        try (EventLog log = EventLog.open(dir.resolve("on.spool"))) {
            log.emit(java.util.Map.of("i", 2));
        }
        await("dev.spool.SinkWrite", e -> true);
        List<RecordedEvent> recorded = dumped();
        first(recorded, "dev.spool.SinkWrite", e -> String.valueOf(e.getString("path")).endsWith("on.spool"));
        assertTrue(recorded.stream().noneMatch(e -> e.getEventType().getName().equals("dev.spool.SinkWrite")
                && String.valueOf(e.getString("path")).endsWith("off.spool")), recorded.toString());
    }

    private List<RecordedEvent> dumped() throws java.io.IOException {
        Path file = dir.resolve("recording.jfr");
        stream.dump(file);
        return RecordingFile.readAllEvents(file);
    }

    private static RecordedEvent first(List<RecordedEvent> events, String type, Predicate<RecordedEvent> matching) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type) && matching.test(e)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + events));
    }

    /** Issue 33: an open that replays a killed writer's journal (laid out by hand, two frames a plain log wrote) records it. */
    @Test
    void shouldRecordAJournalRecovery() throws Exception {
        Path plain = dir.resolve("plain.spool");
        try (EventLog p = EventLog.open(plain, SinkSettings.builder().journal(false).build())) {
            p.emit("a");
            p.emit("b");
        }
        byte[] bytes = Files.readAllBytes(plain);
        Path file = Files.write(dir.resolve("events.spool"), java.util.Arrays.copyOf(bytes, 16));
        java.nio.ByteBuffer j = java.nio.ByteBuffer.allocate(JournalLayout.headerBytes(1) + 4096)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        j.put(0, JournalLayout.MAGIC).putInt(JournalLayout.VERSION_OFFSET, JournalLayout.VERSION)
                .putInt(JournalLayout.REGION_COUNT_OFFSET, 1).putInt(JournalLayout.REGION_BYTES_OFFSET, 4096)
                .putLong(JournalLayout.USE_TABLE_OFFSET, 1)
                .put(JournalLayout.headerBytes(1), java.util.Arrays.copyOfRange(bytes, 16, bytes.length));
        Files.write(JournalLayout.journalOf(file), j.array());
        EventLog.open(file).close();
        RecordedEvent e = await("dev.spool.JournalRecovery", x -> x.getString("path").endsWith("events.spool"));
        assertEquals(2, e.getLong("records"));
        assertEquals(bytes.length - 16, e.getLong("bytes"));
    }

    private RecordedEvent await(String type, Predicate<RecordedEvent> matching) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND_NANOS;
        while (System.nanoTime() < deadline) {
            for (RecordedEvent e : seen) {
                if (e.getEventType().getName().equals(type) && matching.test(e)) {
                    return e;
                }
            }
            Thread.sleep(20); // polling a condition, bounded; the stream delivers about once a second
        }
        throw new AssertionError("no " + type + " within " + Duration.ofNanos(BOUND_NANOS) + "; seen " + seen);
    }
}
