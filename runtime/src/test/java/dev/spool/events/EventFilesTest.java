package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where appending to an existing event file continues: {@link EventFiles#endOfData} reads one
 * byte when the file cannot end in padding and walks the frames otherwise; both give the end a
 * walk of every frame gives, for a file cut at every offset, with and without zero padding.
 */
class EventFilesTest {
    @TempDir
    Path dir;

    private byte[] original;

    @BeforeEach
    void writeSmallFile() throws Exception {
        Path f = dir.resolve("small.spool");
        try (EventLog log = EventLog.open(f)) {
            for (int i = 0; i < 5; i++) {
                log.emit(Map.of("i", i, "values", new double[] {i * 0.5, 0.0}));
            }
            log.emit(0); // its payload may end in a zero byte: a frame that ends like padding
        }
        original = Files.readAllBytes(f);
    }

    @Test
    void shouldFindTheEndAWalkOfEveryFrameFindsAtEveryCutWithAndWithoutPadding() throws Exception {
        for (int cut = RecordDescriptor.FILE_HEADER_LENGTH; cut <= original.length; cut++) {
            for (int padding : new int[] {0, 1, 31, 32, 4096}) {
                byte[] bytes = Arrays.copyOf(original, cut + padding);
                Path f = dir.resolve("cut-" + cut + "-" + padding + ".spool");
                Files.write(f, bytes);
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    assertEquals(walkedEnd(ch), EventFiles.endOfData(ch, ch.size()),
                            "cut at " + cut + " with " + padding + " zero bytes after it");
                }
            }
        }
    }

    @Test
    void shouldCutOnlyThePaddingWhenOpenedForAppending() throws Exception {
        Path f = dir.resolve("padded.spool");
        byte[] padded = Arrays.copyOf(original, original.length + 8192);
        Files.write(f, padded);
        EventFiles.Opened opened = EventFiles.openForAppend(f);
        try {
            assertEquals(original.length, opened.findStart());
        } finally {
            opened.channel.close();
        }
        assertArrayEquals(original, Files.readAllBytes(f));
    }

    @Test
    void shouldAppendAtTheEndOfAFileThatEndsInANonZeroByteWithoutCuttingIt() throws Exception {
        Path f = dir.resolve("whole.spool");
        try (EventLog log = EventLog.open(f)) {
            log.emit(Map.of("i", 1));
            log.emit("x"); // a string's last byte: its last character
        }
        byte[] whole = Files.readAllBytes(f);
        assertEquals('x', whole[whole.length - 1]);
        EventFiles.Opened opened = EventFiles.openForAppend(f);
        try {
            assertEquals(whole.length, opened.findStart());
        } finally {
            opened.channel.close();
        }
        assertArrayEquals(whole, Files.readAllBytes(f));
    }

    @Test
    void shouldCutPaddingAtEveryFrameBoundaryWhereAnIndependentWalkPutsIt() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = RecordDescriptor.FILE_HEADER_LENGTH; at < original.length; at += b.getInt(at)) {
            byte[] padded = Arrays.copyOf(Arrays.copyOf(original, at), at + 100);
            Path f = dir.resolve("boundary-" + at + ".spool");
            Files.write(f, padded);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                assertEquals(at, EventFiles.endOfData(ch, ch.size()), "padding after the frame ending at " + at);
            }
        }
    }

    /** The end of data as a walk of every frame finds it (the only way before the one-byte check). */
    private static long walkedEnd(FileChannel ch) throws Exception {
        FrameScanner scanner = new FrameScanner(ch, RecordDescriptor.FILE_HEADER_LENGTH, (o, k, d) -> { });
        while (scanner.next() != null) {
            // to the end
        }
        return scanner.paddingFrom() >= 0 ? scanner.paddingFrom() : ch.size();
    }

    @Test
    void shouldEndTheSmallFileInAZeroByteSoTheWalkIsExercised() {
        assertEquals(0, ByteBuffer.wrap(original).get(original.length - 1),
                "the last frame's payload ends in a zero byte");
    }
}
