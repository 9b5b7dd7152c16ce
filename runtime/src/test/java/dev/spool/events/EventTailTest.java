package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.sink.SinkSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** {@link EventTail}: what EventReader reads, with ordinals; committed frames only; clean resume points. */
class EventTailTest {
    private static final int RECORD_MAX = 3000;

    @TempDir
    Path dir;

    /** Three threads emitting small and split events at once, so split parts interleave. */
    private Path interleaved(int perThread) throws Exception {
        Path f = dir.resolve("t.spool");
        SinkSettings s = SinkSettings.builder().bufferBytes(4096).directThreshold(100_000).recordMax(RECORD_MAX).build();
        try (EventLog log = EventLog.open(f, s)) {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        log.emit(Map.of("t", id, "i", i, "pad", "x".repeat(i % 5 == 0 ? 2 * RECORD_MAX + id : 10)));
                    }
                });
                th.start();
                threads.add(th);
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
        }
        return f;
    }

    private Path small(int n) {
        Path f = dir.resolve("small.spool");
        try (EventLog log = EventLog.open(f)) {
            for (int i = 0; i < n; i++) {
                log.emit(Map.of("i", i, "text", "small event " + i));
            }
        }
        return f;
    }

    private static List<String> readAll(Path f) throws IOException {
        List<String> out = new ArrayList<>();
        try (EventReader r = EventReader.open(f)) {
            r.forEach(e -> out.add(e.value().toString()));
            assertTrue(r.sound(), r.problems().toString());
        }
        return out;
    }

    private static List<EventTail.Tailed> tailAll(EventTail t) throws IOException {
        List<EventTail.Tailed> out = new ArrayList<>();
        for (List<EventTail.Tailed> b; !(b = t.poll(7)).isEmpty(); ) {
            out.addAll(b);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 3_000})
    void shouldReturnWhatEventReaderReturnsInItsOrderWithOrdinals(int events) throws Exception {
        Path f = interleaved(events); // 3,000 per thread: several read-ahead windows, crossed by polls of 7
        List<String> expected = readAll(f);
        List<ReadProblem> problems = new ArrayList<>();
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, problems::add)) {
            List<EventTail.Tailed> got = tailAll(t);
            assertEquals(expected.size(), got.size());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(i, got.get(i).ordinal());
                assertEquals(expected.get(i), got.get(i).record().value().toString());
            }
            assertTrue(t.atEnd());
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void shouldResumeFromAnyCleanPointWithTheSameOrdinalsAndValues() throws Exception {
        Path f = interleaved(100);
        List<EventTail.Tailed> all;
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, p -> { })) {
            all = tailAll(t);
        }
        int resumable = 0;
        for (EventTail.Tailed at : all) {
            if (at.resume() == null || at.ordinal() % 37 != 0) {
                continue;
            }
            resumable++;
            try (EventTail t = EventTail.open(f, at.resume(), false, p -> { })) {
                List<EventTail.Tailed> rest = tailAll(t);
                assertEquals(all.size() - at.ordinal() - 1, rest.size());
                for (EventTail.Tailed r : rest) {
                    EventTail.Tailed same = all.get((int) r.ordinal());
                    assertEquals(same.record().value(), r.record().value());
                    assertEquals(same.record().offset(), r.record().offset());
                }
            }
        }
        assertTrue(resumable > 0, "some clean points");
    }

    @Test
    void shouldWaitForAFrameStillBeingWrittenWithoutReportingIt() throws Exception {
        Path whole = interleaved(50);
        byte[] bytes = Files.readAllBytes(whole);
        List<String> expected = readAll(whole);
        Path growing = dir.resolve("growing.spool");
        List<ReadProblem> problems = new ArrayList<>();
        List<String> got = new ArrayList<>();
        Files.write(growing, new byte[0]);
        try (EventTail t = EventTail.open(growing, EventTail.Position.START, false, problems::add)) {
            // the writer's bytes arrive in odd slices, cutting headers and payloads anywhere
            for (int at = 0; at < bytes.length; ) {
                int n = Math.min(bytes.length - at, 1 + (at * 7919) % 1500);
                Files.write(growing, java.util.Arrays.copyOfRange(bytes, at, at + n), StandardOpenOption.APPEND);
                at += n;
                for (EventTail.Tailed r : t.poll(1000)) {
                    assertEquals(got.size(), r.ordinal());
                    got.add(r.record().value().toString());
                }
            }
        }
        assertEquals(List.of(), problems, "a frame being written is never damage");
        assertEquals(expected, got);
    }

    @Test
    void shouldSkipAndReportDamageOnceItHasSettledAndAValidFrameFollows() throws Exception {
        Path f = small(20);
        List<String> expected = readAll(f);
        byte[] bytes = Files.readAllBytes(f);
        bytes[RecordDescriptor.FILE_HEADER_LENGTH + 40] ^= 0x55; // inside the first frame's payload
        Files.write(f, bytes);
        List<ReadProblem> problems = new ArrayList<>();
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, problems::add)) {
            assertEquals(List.of(), t.poll(1000), "a bad frame may still be being written: wait");
            assertEquals(List.of(), problems);
            long settle = System.nanoTime() + EventTail.SETTLE_NANOS;
            while (System.nanoTime() < settle) {
                Thread.sleep(50);
            }
            List<EventTail.Tailed> rest = tailAll(t);
            assertEquals(1, problems.size(), problems.toString());
            assertEquals(RecordDescriptor.FILE_HEADER_LENGTH, problems.get(0).offset());
            assertEquals(expected.subList(1, expected.size()), rest.stream().map(r -> r.record().value().toString()).toList());
        }
    }

    @Test
    void shouldNameTheFileByItsFirstFrameOnceThatIsComplete() throws Exception {
        Path f = interleaved(3);
        byte[] bytes = Files.readAllBytes(f);
        Path partial = dir.resolve("p.spool");
        Files.write(partial, java.util.Arrays.copyOf(bytes, RecordDescriptor.FILE_HEADER_LENGTH + 40));
        try (EventTail t = EventTail.open(partial, EventTail.Position.START, false, p -> { })) {
            assertEquals(null, t.firstFrameHeader());
            Files.write(partial, bytes);
            assertNotNull(t.firstFrameHeader());
        }
    }

    @Test
    void shouldEstimateTheRecordsInTheFileAheadOfWhatItHasReadCountingSplitRecordsOnce() throws Exception {
        Path f = interleaved(40);
        int total = readAll(f).size();
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, p -> { })) {
            assertEquals(total, t.recordsInFileEstimate(), "nothing read yet: every record of the file");
            List<EventTail.Tailed> some = t.poll(25);
            assertEquals(total, t.recordsInFileEstimate(), "after a partial read: still the whole file");
            tailAll(t);
            assertEquals(total, t.recordsInFileEstimate(), "all read");
            assertTrue(some.size() == 25);
        }
        // a frame cut at the end (being appended) is not counted
        long size = Files.size(f);
        try (var ch = java.nio.channels.FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(size - 5);
        }
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, p -> { })) {
            assertEquals(total - 1, t.recordsInFileEstimate());
        }
    }
}
