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
 * A file still being written, as a live memory-mapped writer leaves it: frames, then zeros that
 * the writer fills with the next frames. A frame written into the zeros after the scanner read
 * them ahead is found, not reported as damage.
 */
class FrameScannerLiveTest {
    @TempDir
    Path dir;

    @Test
    void shouldFindAFrameWrittenIntoThePaddingAfterTheScannerReadItAhead() throws Exception {
        Path f = dir.resolve("live.spool");
        try (EventLog log = EventLog.open(f)) {
            for (int i = 0; i < 4; i++) {
                log.emit(Map.of("i", i));
            }
        }
        byte[] data = Files.readAllBytes(f);
        int firstLength = ByteBuffer.wrap(data).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getInt(RecordDescriptor.FILE_HEADER_LENGTH);
        byte[] frame = Arrays.copyOfRange(data, RecordDescriptor.FILE_HEADER_LENGTH,
                RecordDescriptor.FILE_HEADER_LENGTH + firstLength); // self-contained: valid anywhere
        Files.write(f, Arrays.copyOf(data, data.length + 4096));
        List<String> problems = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FrameScanner scanner = new FrameScanner(ch, RecordDescriptor.FILE_HEADER_LENGTH,
                    (o, k, d) -> problems.add(o + " " + k + " " + d));
            int frames = scanner.next() != null ? 1 : 0; // the window now holds the zeros after the data
            ch.write(ByteBuffer.wrap(frame), data.length); // the writer fills them
            while (scanner.next() != null) {
                frames++;
            }
            assertEquals(List.of(), problems);
            assertEquals(5, frames);
            assertEquals(data.length + frame.length, scanner.paddingFrom());
        }
    }
}
