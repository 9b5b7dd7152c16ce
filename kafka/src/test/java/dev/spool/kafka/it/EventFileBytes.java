package dev.spool.kafka.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Event files for the fault tests, made by the runtime's own writer ({@link EventLog}) and then hurt
 * the way a crash or a disk hurts them, byte by byte as docs/FORMAT.md lays them out (16-byte file
 * header; frames of a 32-byte header, length at 0, CRC32C at 4 over bytes [0,4) and [8,length),
 * timestamp at 16); and what the file holds, read back by {@link EventReader} (what {@code spool cat}
 * prints).
 */
public final class EventFileBytes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EventFileBytes() {
    }

    /** Appends events {@code from..from+count-1} ({@code {"i":n,"text":...}}) with the runtime's writer. */
    public static void emit(Path file, int from, int count) {
        try (EventLog log = EventLog.open(file)) {
            for (int i = from; i < from + count; i++) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("i", i);
                e.put("text", "event number " + i);
                log.emit(e);
            }
        }
    }

    /** The offsets of the file's frames, walked by their length fields from the file header on. */
    public static List<Long> frames(Path file) throws IOException {
        List<Long> out = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 16; at + 32 <= b.limit() && b.getInt(at) >= 32; at += b.getInt(at)) {
            out.add((long) at);
        }
        return out;
    }

    /** Flips one payload byte of the frame at {@code frameAt} (its CRC32C no longer matches). */
    public static void damage(Path file, long frameAt) throws IOException {
        byte[] b = Files.readAllBytes(file);
        b[(int) frameAt + 33] ^= 0x5a;
        Files.write(file, b);
    }

    /** Sets the timestamp of the frame at {@code frameAt} and its CRC32C to match: a valid frame with that time. */
    public static void retime(Path file, long frameAt, long timestampMillis) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) frameAt;
        int length = b.getInt(at);
        b.putLong(at + 16, timestampMillis);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), at, 4);
        crc.update(b.array(), at + 8, length - 8);
        b.putInt(at + 4, (int) crc.getValue());
        Files.write(file, b.array());
    }

    /** Cuts the file at {@code size} bytes (what a crash does to an unsynced tail). */
    public static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    /** Appends raw bytes. */
    public static void append(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    /** The records' values as {@code spool cat} prints them (one JSON object each), in file order. */
    public static List<String> values(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (EventReader r = EventReader.open(file)) {
            for (EventRecord e : r) {
                out.add(JSON.writeValueAsString(e.value()));
            }
        }
        return out;
    }
}
