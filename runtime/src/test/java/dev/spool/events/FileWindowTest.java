package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileWindow} gives the bytes a positional read of the file gives, wherever a read falls. */
class FileWindowTest {
    private static final int SIZE = 2 * FileWindow.WINDOW + 12_345;

    @TempDir
    Path dir;

    @Test
    void shouldReadWhatTheFileHoldsForwardsBackwardsAcrossTheEdgeAndBeyondTheWindow() throws IOException {
        byte[] bytes = new byte[SIZE];
        new SplittableRandom(7).nextBytes(bytes);
        Path f = dir.resolve("random.bin");
        Files.write(f, bytes);
        SplittableRandom random = new SplittableRandom(11);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            FileWindow window = new FileWindow(ch, SIZE);
            long[][] reads = {
                {0, 32}, {32, 100}, {FileWindow.WINDOW - 10, 32}, {5, 7}, // across the window's end, then back
                {SIZE - 32, 32}, {SIZE - 1, 1}, {100, FileWindow.WINDOW + 1}, // the file's end; larger than the window
                {FileWindow.WINDOW, FileWindow.WINDOW}, {0, FileWindow.WINDOW}, {SIZE - FileWindow.WINDOW, FileWindow.WINDOW},
            };
            for (long[] r : reads) {
                check(window, bytes, r[0], (int) r[1]);
            }
            for (int i = 0; i < 2_000; i++) {
                int n = 1 + random.nextInt(i % 10 == 0 ? 70_000 : 600);
                check(window, bytes, random.nextLong(SIZE - n + 1), n);
            }
        }
    }

    @Test
    void shouldFailOnlyAReadThatNeedsBytesTheFileNoLongerHas() throws IOException {
        byte[] bytes = new byte[SIZE];
        new SplittableRandom(3).nextBytes(bytes);
        Path f = dir.resolve("shrinking.bin");
        Files.write(f, bytes);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileWindow window = new FileWindow(ch, SIZE);
            ch.truncate(1000);
            check(window, bytes, 900, 100); // the window is filled short, and serves what is there
            assertThrows(IOException.class, () -> window.readFully(ByteBuffer.allocate(200), 900, 200));
        }
    }

    @Test
    void shouldReadTheFileAgainAfterADrop() throws IOException {
        Path f = dir.resolve("changing.bin");
        Files.write(f, new byte[4096]);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileWindow window = new FileWindow(ch, 4096);
            ByteBuffer b = ByteBuffer.allocate(4);
            window.readFully(b, 2000, 4);
            assertEquals(0, b.getInt(0));
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}), 2000);
            window.readFully(b, 2000, 4);
            assertEquals(0, b.getInt(0), "served from the window's older copy");
            window.drop();
            window.readFully(b, 2000, 4);
            assertEquals(0x01020304, b.getInt(0));
        }
    }

    private static void check(FileWindow window, byte[] bytes, long at, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n + 3);
        window.readFully(b, at, n);
        assertEquals(0, b.position(), "flipped for reading");
        assertEquals(n, b.limit());
        assertEquals(ByteBuffer.wrap(bytes, (int) at, n), b, "bytes at " + at + ", " + n + " long");
    }
}
