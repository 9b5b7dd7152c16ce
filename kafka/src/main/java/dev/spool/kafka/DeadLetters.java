package dev.spool.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The records of one event file that Kafka refused for good, beside its checkpoint:
 * {@code <file>.kafka-<topic>.dead-letter}, one JSON object per line: {@code key}, {@code ordinal},
 * {@code offset} (of the record's frame in the event file), {@code timestamp}, {@code reason} (what
 * the broker said) and {@code value} (the record as it was sent). Each line is appended and forced
 * to disk before the checkpoint may pass the record, so a refused record is never only skipped; a
 * crash between the two can write the same line twice (same key). Not thread-safe (the shipper
 * thread's).
 */
final class DeadLetters {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path path;

    DeadLetters(Path eventFile, String topic) {
        Path abs = eventFile.toAbsolutePath();
        this.path = abs.resolveSibling(abs.getFileName() + ".kafka-" + topic + ".dead-letter");
    }

    Path path() {
        return path;
    }

    /** Appends one refused record and forces it to disk. */
    void keep(String key, long ordinal, long offset, long timestamp, String reason, byte[] value) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("key", key);
        n.put("ordinal", ordinal);
        n.put("offset", offset);
        n.put("timestamp", timestamp);
        n.put("reason", reason);
        n.set("value", JSON.readTree(value));
        byte[] line = (JSON.writeValueAsString(n) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(line);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }
}
