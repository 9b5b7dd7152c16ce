package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tail follows the file as it is at each poll, not a copy read ahead at an earlier one: bytes
 * after what it has returned may change between polls (a write given up at close and its offset
 * written again; zeros a memory-mapped writer fills).
 */
class EventTailRewriteTest {
    @TempDir
    Path dir;

    @Test
    void shouldReturnTheFramesWrittenOverBytesItHadReadAheadOfItsPoll() throws Exception {
        Path f = dir.resolve("rewritten.spool");
        writeEvents(f, List.of(Map.of("first", 1), Map.of("old", "x".repeat(40)), Map.of("old", 2)));
        Path other = dir.resolve("other.spool");
        writeEvents(other, List.of(Map.of("new", "y".repeat(7)), Map.of("new", 3)));
        byte[] replacement = Arrays.copyOfRange(Files.readAllBytes(other), RecordDescriptor.FILE_HEADER_LENGTH,
                (int) Files.size(other)); // whole frames: valid at any offset
        List<ReadProblem> problems = new ArrayList<>();
        List<String> got = new ArrayList<>();
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, problems::add)) {
            List<EventTail.Tailed> first = t.poll(1); // reads ahead over the two "old" frames
            assertEquals(1, first.size());
            got.add(first.get(0).record().value().toString());
            long end = first.get(0).end();
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.truncate(end);
                ch.write(ByteBuffer.wrap(replacement), end);
            }
            for (EventTail.Tailed r : t.poll(10)) {
                got.add(r.record().value().toString());
            }
        }
        assertEquals(List.of("{\"first\":1}", "{\"new\":\"yyyyyyy\"}", "{\"new\":3}"), got);
        assertEquals(List.of(), problems);
    }

    @Test
    void shouldWaitAtZerosAndReturnTheFrameWrittenIntoThem() throws Exception {
        Path f = dir.resolve("live.spool");
        writeEvents(f, List.of(Map.of("a", 1)));
        Path other = dir.resolve("next.spool");
        writeEvents(other, List.of(Map.of("b", 2)));
        byte[] frame = Arrays.copyOfRange(Files.readAllBytes(other), RecordDescriptor.FILE_HEADER_LENGTH,
                (int) Files.size(other));
        long dataEnd = Files.size(f);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1 << 20), dataEnd); // a mapped window's zeros
        }
        List<ReadProblem> problems = new ArrayList<>();
        try (EventTail t = EventTail.open(f, EventTail.Position.START, false, problems::add)) {
            assertEquals(1, t.poll(10).size());
            assertEquals(List.of(), t.poll(10), "zeros: nothing committed yet");
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(frame), dataEnd);
            }
            List<EventTail.Tailed> next = t.poll(10);
            assertEquals(1, next.size());
            assertEquals("{\"b\":2}", next.get(0).record().value().toString());
        }
        assertEquals(List.of(), problems);
    }

    private static void writeEvents(Path f, List<Map<String, Object>> events) {
        try (EventLog log = EventLog.open(f)) {
            events.forEach(log::emit);
        }
    }
}
