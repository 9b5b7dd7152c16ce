package dev.spool.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.spool.events.EventTail;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The shipping checkpoint of one event file and topic, beside the file:
 * {@code <file>.kafka-<topic>.checkpoint}, one JSON object naming the stream, the file's
 * fingerprint, the clean {@link EventTail.Position} up to which Kafka acknowledged every
 * record, and the offset and CRC32C of the frame ending there (so that a file cut short and
 * grown again is told apart from the one acknowledged). Written atomically (temp file in the same folder, fsync, rename); only ever advanced
 * after an acknowledgement. One shipper at a time per checkpoint: {@link #lock} holds an
 * exclusive lock on {@code <checkpoint>.lock} (another process, or this JVM, is refused).
 * Not thread-safe.
 */
final class Checkpoint implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a checkpoint file holds. */
    static final class State {
        final String stream;
        final String fingerprint;
        final EventTail.Position position;
        /** The offset of the frame that ends at {@code position} (-1: none, or an older checkpoint without it). */
        final long lastFrameAt;
        /** That frame's stored CRC32C: the same frame must be there again for the position to be this file's. */
        final int lastFrameCrc;

        State(String stream, String fingerprint, EventTail.Position position, long lastFrameAt, int lastFrameCrc) {
            this.stream = stream;
            this.fingerprint = fingerprint;
            this.position = position;
            this.lastFrameAt = lastFrameAt;
            this.lastFrameCrc = lastFrameCrc;
        }
    }

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private Checkpoint(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    static Path pathFor(Path eventFile, String topic) {
        Path abs = eventFile.toAbsolutePath();
        return abs.resolveSibling(abs.getFileName() + ".kafka-" + topic + ".checkpoint");
    }

    /** Locks the checkpoint of {@code eventFile} and {@code topic}; refused when another shipper holds it. */
    static Checkpoint lock(Path eventFile, String topic) throws IOException {
        Path path = pathFor(eventFile, topic);
        Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
        FileChannel ch = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock l = ch.tryLock();
            if (l == null) {
                throw new IOException(lockPath + " is locked: another process ships " + eventFile + " to " + topic);
            }
            return new Checkpoint(path, ch, l);
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new IOException(eventFile + " is already being shipped to " + topic + " by this JVM");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** The stored state, or null when there is none yet. */
    State read() throws IOException {
        if (!Files.exists(path)) {
            return null;
        }
        JsonNode n;
        try {
            n = JSON.readTree(Files.readAllBytes(path));
            EventTail.Position p = new EventTail.Position(n.get("offset").asLong(), n.get("ordinal").asLong());
            JsonNode at = n.get("lastFrameAt");
            JsonNode crc = n.get("lastFrameCrc");
            return new State(n.get("stream").asText(), n.get("fingerprint").asText(), p,
                    at == null ? -1 : at.asLong(), crc == null ? 0 : crc.asInt());
        } catch (IOException | RuntimeException e) {
            throw new IOException(path + " is not a shipping checkpoint (" + e.getMessage() + ")", e);
        }
    }

    void write(State s) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.put("stream", s.stream);
        n.put("fingerprint", s.fingerprint);
        n.put("offset", s.position.offset());
        n.put("ordinal", s.position.ordinal());
        if (s.lastFrameAt >= 0) {
            n.put("lastFrameAt", s.lastFrameAt);
            n.put("lastFrameCrc", s.lastFrameCrc);
        }
        byte[] bytes = JSON.writeValueAsBytes(n);
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            lockChannel.close();
        }
    }
}
