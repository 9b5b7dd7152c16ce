package dev.spool.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Writes zeros over the first {@code size} bytes of a file before it is mapped: the file system
 * allocates every block here, so a full disk is an {@link IOException} at this call (the caller
 * goes on without the mapping) and never a SIGBUS later, in a store on a producer's thread. Used by
 * the event sink's journal and the JUL journal. Thread-safe, stateless (one shared read-only
 * buffer of zeros).
 */
public final class ZeroFill {

    /** 64 KiB of zeros, read-only: each call takes its own {@code duplicate()}. */
    public static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

    private ZeroFill() {
    }

    /**
     * Writes {@code size} zero bytes at positions 0 .. size-1 of {@code ch}.
     *
     * @throws IOException as the channel's write does (ENOSPC on a full disk)
     */
    public static void allocate(FileChannel ch, long size) throws IOException {
        for (long at = 0; at < size; ) {
            ByteBuffer z = ZEROS.duplicate();
            z.limit((int) Math.min(z.capacity(), size - at));
            at += ch.write(z, at);
        }
    }
}
