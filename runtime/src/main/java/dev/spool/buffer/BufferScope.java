package dev.spool.buffer;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open buffering scope ({@code Spool.buffered()}). Scopes nest: the buffer counts open scopes,
 * process-wide, and the close of the outermost one flushes. Closing twice is harmless.
 *
 * <pre>{@code
 * try (var scope = Spool.buffered()) {
 *     map.put("step", 42);          // memory only
 * }                                  // outermost close: flushed here
 * }</pre>
 */
public final class BufferScope implements AutoCloseable {
    private final SharedBuffer buffer;
    private final AtomicBoolean closed = new AtomicBoolean();

    BufferScope(SharedBuffer buffer) {
        this.buffer = buffer;
    }

    /**
     * Ends this scope; if it was the outermost open one, flushes.
     * @throws FlushException if that flush could not write every file (content kept for retry)
     */
    @Override
    public void close() throws FlushException {
        if (closed.compareAndSet(false, true)) buffer.closeScope();
    }
}
