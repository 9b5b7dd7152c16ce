package dev.spool.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** {@link SinkType#FILE}: sequential {@link FileChannel} writes, gathering where possible. */
final class FileBackend implements SinkBackend {
    /** Heap sources are written in slices so the JDK's per-thread temporary direct buffer stays small. */
    private static final int HEAP_SLICE = 1 << 20;

    private final FileChannel channel;
    private long position;

    FileBackend(FileChannel channel, long start) throws IOException {
        this.channel = channel;
        this.position = start;
        channel.position(start);
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        boolean allDirect = true;
        long total = 0;
        for (ByteBuffer b : sources) {
            allDirect &= b.isDirect() || b.remaining() <= HEAP_SLICE;
            total += b.remaining();
        }
        if (allDirect) {
            long done = 0;
            while (done < total) {
                done += channel.write(sources);
            }
        } else {
            for (ByteBuffer b : sources) {
                writeSliced(b);
            }
        }
        position += total;
    }

    private void writeSliced(ByteBuffer b) throws IOException {
        int end = b.limit();
        while (b.position() < end) {
            b.limit(Math.min(end, b.position() + HEAP_SLICE));
            while (b.hasRemaining()) {
                channel.write(b);
            }
        }
        b.limit(end);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void rewind(long position) throws IOException {
        this.position = position;
        channel.position(position);
    }

    @Override
    public void flush() {
        // FileChannel writes go straight to the OS; nothing is held here.
    }

    @Override
    public void settle() throws IOException {
        if (channel.size() > position) {
            channel.truncate(position);
        }
    }

    @Override
    public void close() throws IOException {
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
