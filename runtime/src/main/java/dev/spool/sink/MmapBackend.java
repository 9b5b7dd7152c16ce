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
 */
final class MmapBackend implements SinkBackend {
    static final int WINDOW_BYTES = 16 << 20;

    private final FileChannel channel;
    private MappedByteBuffer window;
    private long windowStart;
    private long position;

    MmapBackend(FileChannel channel, long start) {
        this.channel = channel;
        this.position = start;
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        for (ByteBuffer src : sources) {
            while (src.hasRemaining()) {
                ensureWindow();
                int offset = (int) (position - windowStart);
                int n = Math.min(src.remaining(), window.capacity() - offset);
                window.put(offset, src, src.position(), n);
                src.position(src.position() + n);
                position += n;
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
