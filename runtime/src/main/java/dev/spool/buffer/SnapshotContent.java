package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.io.IOException;

/**
 * The content of a snapshot entry: already-encoded bytes ({@link #ofBytes}), or a capture that
 * encodes itself later, on whichever thread flushes the file (the agent's captured Jackson writes).
 *
 * <p>Contract for implementations: immutable once handed to {@link SharedBuffer#putSnapshot(java.nio.file.Path,
 * SnapshotContent)}; {@link #encode()} returns the same bytes every time (it may cache them), may
 * be called on any thread (the buffer calls it under the entry's monitor), and throws only when
 * the content cannot be encoded at all; {@link #heapBytes()} is constant. The caller must not
 * modify the returned array.
 * <pre>{@code
 * buffer.putSnapshot(file, SnapshotContent.ofBytes(mapper.writeValueAsBytes(state)));
 * }</pre>
 */
@Internal
public interface SnapshotContent {

    /** The file's bytes (not a copy: do not modify). */
    byte[] encode() throws IOException;

    /** The heap this content holds, in bytes: what {@code capacityBytes} counts for it. */
    long heapBytes();

    /** Content that is {@code bytes} (taken as they are: the caller must not modify them afterwards). */
    static SnapshotContent ofBytes(byte[] bytes) {
        return new Bytes(bytes);
    }

    /** Already-encoded bytes. */
    record Bytes(byte[] bytes) implements SnapshotContent {
        public Bytes {
            java.util.Objects.requireNonNull(bytes, "bytes");
        }

        @Override
        public byte[] encode() {
            return bytes;
        }

        @Override
        public long heapBytes() {
            return bytes.length;
        }
    }
}
