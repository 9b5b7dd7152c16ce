package dev.spool.sink;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the writer thread puts bytes. Used by the writer thread only (not thread-safe). A write
 * either completes or throws; after a failure the writer calls {@link #rewind(long)} with the
 * position before the failed write and retries, so a retried write never duplicates bytes.
 */
interface SinkBackend {
    /** Writes all remaining bytes of each source, in order (a gathering write where possible). */
    void write(ByteBuffer[] sources) throws IOException;

    /** Bytes of payload written so far (the logical end of the output). */
    long position();

    /** {@link #position()}, finding a deferred start first (so it is never unknown); for the journal's record. */
    default long startedPosition() throws IOException {
        return position();
    }

    /** Moves the logical end back to {@code position} after a failed write. */
    void rewind(long position) throws IOException;

    /** Pushes written bytes towards the OS (stream flush); cheap for channel back ends. */
    void flush() throws IOException;

    /**
     * Leaves the output complete as it is now (flushed; a mapped file cut to {@link #position()})
     * while it stays writable: after the JVM's shutdown drained the sink, later bytes are
     * written through and settled one by one.
     */
    default void settle() throws IOException {
        flush();
    }

    /** Final flush and release; a mapped file is cut to {@link #position()}. */
    void close() throws IOException;

    /** Whether sink buffers for this back end should be direct ByteBuffers. */
    boolean wantsDirectBuffers();
}
