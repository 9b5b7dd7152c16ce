package dev.spool.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * {@link SinkType#MMAP}: bytes are copied into a mapped window of {@link #WINDOW_BYTES}; when it
 * is full the next window is mapped further on, so at most one window is mapped by this sink at
 * a time (earlier windows are released when the garbage collector frees them). Mapping extends
 * the file with zeros; {@link #close()} cuts it to the real length. After a crash the file ends in
 * zero padding, which the reader treats as the end of data.
 *
 * <p><b>Disk full.</b> A mapped page the file system cannot back is reported by the kernel as
 * SIGBUS, which the JVM turns into an asynchronous {@code InternalError} that may surface after
 * the copy that caused it, beyond any retry. So no byte is copied into the mapping before the
 * disk blocks under it exist: the file is first filled with real zeros through the channel, up to
 * the end of the data and (best effort) {@link #ALLOCATE_BYTES} beyond it, and a full disk is an
 * ordinary {@link IOException} from that write, which the writer retries like any other. The
 * price: every byte reaches the page cache twice (zeros, then data).
 */
final class MmapBackend implements SinkBackend {
    static final int WINDOW_BYTES = 16 << 20;
    /** How far ahead of the data blocks are allocated (best effort) by writing zeros. */
    static final int ALLOCATE_BYTES = 1 << 20;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(256 << 10).asReadOnlyBuffer();

    private final FileChannel channel;
    private MappedByteBuffer window;
    private long windowStart;
    private long position;
    /** File bytes below this offset have real blocks (zeros or data written through the channel). */
    private long allocated;

    MmapBackend(FileChannel channel, long start) {
        this.channel = channel;
        this.position = start;
        this.allocated = start;
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        for (ByteBuffer src : sources) {
            while (src.hasRemaining()) {
                ensureWindow();
                int offset = (int) (position - windowStart);
                int n = Math.min(src.remaining(), window.capacity() - offset);
                allocate(position + n);
                window.put(offset, src, src.position(), n);
                src.position(src.position() + n);
                position += n;
            }
        }
    }

    /** Writes zeros from {@link #allocated} to at least {@code end}: a full disk shows here, as an IOException. */
    private void allocate(long end) throws IOException {
        if (end <= allocated) {
            return;
        }
        long target = Math.max(end, allocated + ALLOCATE_BYTES);
        while (allocated < target) {
            ByteBuffer z = ZEROS.duplicate();
            z.limit((int) Math.min(z.capacity(), target - allocated));
            try {
                allocated += channel.write(z, allocated);
            } catch (IOException e) {
                if (allocated >= end) {
                    return; // what this write needs is backed; the rest ahead is best effort
                }
                throw e;
            }
        }
    }

    private void ensureWindow() throws IOException {
        if (window == null || position >= windowStart + window.capacity() || position < windowStart) {
            window = null;
            windowStart = position - (position % 4096);
            window = channel.map(FileChannel.MapMode.READ_WRITE, windowStart, WINDOW_BYTES);
        }
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void rewind(long position) {
        this.position = position;
    }

    @Override
    public void flush() {
        // Mapped pages belong to the OS page cache as soon as they are written.
    }

    /** Unmaps (drops the window) and cuts the file to the data; the next write maps again. */
    @Override
    public void settle() throws IOException {
        window = null;
        channel.truncate(position);
        allocated = Math.min(allocated, position);
    }

    @Override
    public void close() throws IOException {
        window = null;
        try {
            channel.truncate(position);
        } finally {
            channel.close();
        }
    }

    @Override
    public boolean wantsDirectBuffers() {
        return true;
    }
}
