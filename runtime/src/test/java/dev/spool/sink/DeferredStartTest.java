package dev.spool.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink whose start position is found on its writer thread ({@link ByteSink#forChannel(FileChannel,
 * java.util.concurrent.Callable, String, SinkSettings)}): the opening and appending threads never
 * run it, the bytes land where it says, and a failure of it is retried without writing twice.
 */
class DeferredStartTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldFindTheStartOnTheWriterThreadAndWriteFromIt(SinkType type) throws IOException {
        Path f = dir.resolve("deferred-" + type);
        Files.writeString(f, "0123456789PADDING");
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        ByteSink sink = ByteSink.forChannel(ch, () -> {
            ranOn.add(Thread.currentThread());
            ch.truncate(10); // as the event log cuts padding
            return 10L;
        }, "deferred", SinkSettings.builder().type(type).build());
        assertTrue(sink.append(ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII))));
        assertTrue(sink.flush(30_000));
        assertTrue(sink.append(ByteBuffer.wrap("def".getBytes(StandardCharsets.US_ASCII))));
        sink.close();
        assertEquals("0123456789abcdef", Files.readString(f));
        assertEquals(1, ranOn.size(), "found once");
        assertNotEquals(Thread.currentThread(), ranOn.get(0), "not on the thread that opened and appended");
    }

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldRetryAStartThatFailedAndWriteEachByteOnce(SinkType type) throws IOException {
        Path f = dir.resolve("failing-" + type);
        Files.writeString(f, "head");
        AtomicInteger calls = new AtomicInteger();
        FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        ByteSink sink = ByteSink.forChannel(ch, () -> {
            if (calls.incrementAndGet() <= 2) {
                throw new IOException("not yet");
            }
            return 4L;
        }, "failing", SinkSettings.builder().type(type).build());
        assertTrue(sink.append(ByteBuffer.wrap("-tail".getBytes(StandardCharsets.US_ASCII))));
        sink.flush(30_000); // false: a write attempt failed meanwhile (documented); the writer retries
        sink.close();
        assertArrayEquals("head-tail".getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(f));
        assertEquals(3, calls.get(), "tried until it was found, then never again");
        assertTrue(sink.metrics().errors() >= 1, "the failures are counted");
    }

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldRewindToTheStartFoundSinceWhenAskedToGoBackToBeforeItWasKnown(SinkType type) throws IOException {
        Path f = dir.resolve("rewind-" + type);
        Files.writeString(f, "head");
        FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        DeferredStartBackend b = new DeferredStartBackend(type, ch, () -> 4L);
        long before = b.position();
        assertEquals(DeferredStartBackend.UNKNOWN, before, "not found before the first write");
        b.write(new ByteBuffer[] {ByteBuffer.wrap("XX".getBytes(StandardCharsets.US_ASCII))});
        b.rewind(before); // as a failed first write is rewound and retried
        b.write(new ByteBuffer[] {ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII))});
        b.close();
        assertEquals("headok", Files.readString(f));
    }

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldCutThePaddingAtCloseWhenNothingWasWritten(SinkType type) throws IOException {
        Path f = dir.resolve("idle-" + type);
        Files.write(f, new byte[] {'h', 'e', 'a', 'd', 0, 0, 0, 0});
        FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        ByteSink sink = ByteSink.forChannel(ch, () -> {
            ch.truncate(4);
            return 4L;
        }, "idle", SinkSettings.builder().type(type).build());
        sink.close();
        assertEquals("head", Files.readString(f));
    }

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldCloseTheChannelAndReleaseTheLockWhenTheStartIsNeverFound(SinkType type) throws IOException {
        Path f = dir.resolve("unfindable-" + type);
        Files.writeString(f, "head");
        FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE);
        assertTrue(ch.tryLock() != null);
        ByteSink sink = ByteSink.forChannel(ch, () -> {
            throw new IOException("unreadable");
        }, "unfindable", SinkSettings.builder().type(type).build());
        sink.close();
        assertTrue(!ch.isOpen(), "the sink's channel is closed");
        assertTrue(sink.metrics().errors() >= 1, "the failure is counted");
        try (FileChannel again = FileChannel.open(f, StandardOpenOption.WRITE)) {
            assertTrue(again.tryLock() != null, "the lock is released");
        }
        assertEquals("head", Files.readString(f));
    }
}
