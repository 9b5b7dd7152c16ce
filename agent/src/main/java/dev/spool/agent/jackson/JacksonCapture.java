package dev.spool.agent.jackson;

import dev.spool.buffer.SnapshotContent;
import java.io.IOException;

/**
 * One captured Jackson write: the host's {@code TokenBuffer} filled on the caller's thread with
 * the call's immutable {@code ObjectWriter}, encoded by that writer when first asked (the flush,
 * on the flushing thread, or a read that needs bytes) and then kept encoded.
 *
 * <p>Immutable apart from the cached encoding (a benign race: two threads encoding at once get
 * equal bytes, one is kept). The tokens are never written to after the capture, so any number of
 * threads may read them ({@code TokenBuffer.asParser} creates an independent parser).
 */
public final class JacksonCapture implements SnapshotContent {

    private final HostJackson ops;
    private final Object writer;
    private final Object tokens;
    private final long heapBytes;
    private final boolean readSafe;
    private final boolean floats;
    private volatile byte[] encoded;

    JacksonCapture(HostJackson ops, Object writer, Object tokens, long heapBytes, boolean readSafe, boolean floats) {
        this.floats = floats;
        this.ops = ops;
        this.writer = writer;
        this.tokens = tokens;
        this.heapBytes = heapBytes;
        this.readSafe = readSafe;
    }

    @Override
    public byte[] encode() throws IOException {
        byte[] b = encoded;
        if (b == null) {
            b = ops.encode(writer, tokens);
            encoded = b;
        }
        return b;
    }

    @Override
    public long heapBytes() {
        return heapBytes;
    }

    /** Whether reads may be answered from the tokens (every value reads back as its text would). */
    boolean readSafe() {
        return readSafe;
    }

    /** Whether the tokens hold floating-point numbers (then only untyped reads are answered from them). */
    boolean floats() {
        return floats;
    }

    HostJackson ops() {
        return ops;
    }

    Object tokens() {
        return tokens;
    }
}
