package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.BufferScope;
import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushException;
import dev.spool.buffer.FlushReport;
import dev.spool.buffer.SharedBuffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import dev.spool.buffer.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inside a scope: one shared live object per real path, no I/O until the flush. */
class BufferedScopeTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() {
        try {
            buffer.close();
        } catch (FlushException ignored) {
            // tests that leave a failing entry
        }
    }

    static Object disk(Path f) throws IOException {
        return new ObjectMapper().readValue(f.toFile(), Object.class);
    }

    private long files() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> !dev.spool.buffer.AtomicFiles.isTempFile(p)).count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldShareOneLiveObjectAcrossInstancesAndPathsAndWriteOnlyAtTheOutermostClose() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        Path f = real.resolve("s.json");
        Files.writeString(f, "{\"v\":0}");
        SyncedMap a = SyncedMap.open(f, buffer);
        SyncedMap b = SyncedMap.open(link.resolve("s.json"), buffer);
        SyncedMap c = SyncedMap.open(dir.resolve("link/../real/s.json"), buffer);
        try (BufferScope outer = buffer.openScope()) {
            a.put("v", 1);
            assertEquals(1, b.get("v"));
            try (BufferScope inner = buffer.openScope()) {
                c.put("w", 2);
                assertEquals(2, a.get("w"));
                assertEquals(2, buffer.scopeDepth());
            }
            assertEquals(Map.of("v", 0), disk(f), "the inner close does not flush");
            assertEquals(1, buffer.metrics().entries());
            assertEquals(1, buffer.metrics().dirtyEntries());
            assertTrue(buffer.metrics().writesAbsorbed() >= 2);
        }
        assertEquals(Map.of("v", 1, "w", 2), disk(f));
        assertEquals(0, buffer.metrics().entries(), "live entries leave with the last scope");
        assertEquals(0, buffer.scopeDepth());
    }

    @Test
    void shouldServeReadsFromMemoryWithoutTouchingTheDisk() throws IOException {
        Path f = dir.resolve("r.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        try (BufferScope s = buffer.openScope()) {
            m.put("a", 1);
            Files.writeString(f, "{\"someone\":\"else\"}"); // not seen while buffered
            assertEquals(Map.of("a", 1), m);
            assertTrue(buffer.metrics().readsServed() > 0);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    @Test
    void shouldWriteBesideAFileChangedDuringTheScopeAndRebaseOnIt() throws IOException {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "{\"n\":0}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        SyncedMap m = SyncedMap.open(f, buffer);
        FlushReport report;
        try (BufferScope s = buffer.openScope()) {
            m.put("n", 1);
            Files.writeString(f, "{\"n\":100}");
            report = buffer.flushWithReport();
            assertEquals(1, report.conflicts().size());
            assertEquals(Map.of("n", 100), m, "the entry re-based on the file's current content");
            m.put("after", true);
        }
        Path conflict = report.conflicts().get(0).conflictFile();
        assertEquals(Map.of("n", 1), disk(conflict));
        assertEquals(Map.of("n", 100, "after", true), disk(f));
        assertEquals(1, buffer.metrics().conflicts());
    }

    @Test
    void shouldFlushInTheBackgroundOverCapacityAndKeepTheEntriesLive() throws IOException {
        buffer.setCapacity(2);
        SyncedMap[] maps = new SyncedMap[3];
        for (int i = 0; i < 3; i++) maps[i] = SyncedMap.open(dir.resolve(i + ".json"), buffer);
        try (BufferScope s = buffer.openScope()) {
            maps[0].put("k", 0);
            maps[1].put("k", 1);
            assertEquals(0, files());
            maps[2].put("k", 2);
            Await.until("the third dirty file woke the flusher", Duration.ofSeconds(30), () -> files() == 3);
            Await.until("nothing dirty", Duration.ofSeconds(30), () -> buffer.metrics().dirtyEntries() == 0);
            assertEquals(3, buffer.metrics().entries(), "live entries stay in an open scope");
            maps[0].put("k", 10);
            assertEquals(Map.of("k", 0), disk(dir.resolve("0.json")));
        }
        assertEquals(Map.of("k", 10), disk(dir.resolve("0.json")));
    }

    @Test
    void shouldForceAFlushWhenTheByteEstimateGrowsPastCapacityBytes() throws IOException {
        buffer.setCapacityBytes(2000);
        Path f = dir.resolve("big.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        try (BufferScope s = buffer.openScope()) {
            m.put("a", "x".repeat(400));
            assertFalse(Files.exists(f));
            assertTrue(buffer.metrics().estimatedBytes() >= 400);
            m.put("b", "y".repeat(700));
            Await.until("an estimate over half of capacityBytes woke the flusher", Duration.ofSeconds(30), () -> Files.exists(f));
            Await.until("no dirty bytes", Duration.ofSeconds(30), () -> buffer.metrics().estimatedBytes() == 0);
        }
    }

    @Test
    void shouldEstimateReplacedAndRemovedValuesWithoutDrift() throws IOException {
        buffer.setCapacityBytes(2000);
        Path f = dir.resolve("e.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        SyncedList l = SyncedList.open(dir.resolve("l.json"), buffer);
        try (BufferScope s = buffer.openScope()) {
            for (int i = 0; i < 10_000; i++) {
                m.put("k", "v".repeat(i % 100));
                l.add(i);
                l.remove(0);
                m.remove("gone");
            }
            assertFalse(Files.exists(f), "overwrites must not inflate the estimate into a forced flush");
            long estimate = buffer.metrics().estimatedBytes();
            assertTrue(estimate > 0 && estimate < 500, "estimate " + estimate);
            assertEquals(30_000, buffer.metrics().writesAbsorbed(), "put, add, remove(0); removing a missing key writes nothing");
        }
        assertEquals(30_000, buffer.metrics().writesAbsorbed(), "counts survive the entries leaving");
    }

    @Test
    void shouldKeepFailedContentAndReportItAtTheScopesClose() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        SyncedMap m = SyncedMap.open(sub.resolve("f.json"), buffer);
        BufferScope s = buffer.openScope();
        m.put("keep", "me");
        Files.delete(sub);
        FlushException e = assertThrows(FlushException.class, s::close);
        assertEquals(1, e.failures().size());
        assertEquals("{\"keep\":\"me\"}", new String(e.failures().get(0).unsavedContent(), StandardCharsets.UTF_8));
        assertEquals(1, buffer.metrics().dirtyEntries(), "kept for retry");
        Files.createDirectory(sub);
        assertEquals(1, buffer.flush());
        assertEquals(Map.of("keep", "me"), disk(sub.resolve("f.json")));
    }

    @Test
    void shouldHandOverSnapshotEntriesToCollections() throws IOException {
        Path f = dir.resolve("snap.json");
        buffer.putSnapshot(f, "{\"from\":\"agent\"}".getBytes(StandardCharsets.UTF_8));
        SyncedMap m = SyncedMap.open(f, buffer);
        assertEquals("agent", m.get("from"));
        m.put("by", "collection"); // no scope: written through, snapshot content included
        assertEquals(Map.of("from", "agent", "by", "collection"), disk(f));
        try (BufferScope s = buffer.openScope()) {
            m.put("n", 1);
            assertEquals("{\"from\":\"agent\",\"by\":\"collection\",\"n\":1}",
                    new String(buffer.readBuffered(f), StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldLetASnapshotReplaceALiveTreeAndTheTimerFlushItMidScope() throws IOException {
        Path f = dir.resolve("mix.json");
        SyncedMap m = SyncedMap.open(f, buffer);
        try (BufferScope s = buffer.openScope()) {
            m.put("from", "collection");
            buffer.putSnapshot(f, "{\"from\":\"agent\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(Map.of("from", "agent"), m, "the collection now sees the snapshot");
            m.put("and", "more");
            buffer.setFlushIntervalMillis(5);
            dev.spool.buffer.Await.until("a timed flush inside the scope", java.time.Duration.ofSeconds(10),
                    () -> Files.exists(f) && buffer.metrics().dirtyEntries() == 0);
            buffer.setFlushIntervalMillis(0);
            assertEquals(Map.of("from", "agent", "and", "more"), disk(f));
            assertEquals(1, buffer.metrics().entries(), "the live entry stays while the scope is open");
        }
    }

    @Test
    void shouldLetListenersCallBackIntoTheBuffer() throws IOException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        buffer.addListener(new dev.spool.buffer.BufferListener() {
            @Override
            public void flushCompleted(int files, long millis) {
                try {
                    byte[] other = buffer.readBuffered(b);
                    seen.add(files + ":" + (other == null ? "-" : new String(other, StandardCharsets.UTF_8)));
                } catch (IOException e) {
                    seen.add("error " + e);
                }
            }
        });
        SyncedMap ma = SyncedMap.open(a, buffer);
        SyncedMap mb = SyncedMap.open(b, buffer);
        try (BufferScope s = buffer.openScope()) {
            ma.put("x", 1);
            mb.put("y", 2);
            buffer.flush();
        }
        assertEquals("2:{\"y\":2}", seen.get(0));
    }

    @Test
    void shouldGoStraightToDiskWhenTheBufferIsDisabled() throws IOException {
        Path f = dir.resolve("d.json");
        SyncedList l = SyncedList.open(f, buffer);
        buffer.setEnabled(false);
        try (BufferScope s = buffer.openScope()) {
            l.add(1);
            assertEquals(List.of(1), disk(f));
        }
    }
}
