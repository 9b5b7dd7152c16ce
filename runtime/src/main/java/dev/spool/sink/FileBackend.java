package dev.spool.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** {@link SinkType#FILE}: sequential {@link FileChannel} writes, gathering where possible. */
final class FileBackend implements SinkBackend {
    /**
     * A source over this size is written in slices of it: a heap source so the JDK's per-thread
     * temporary direct buffer stays small; a direct one (a large payload's direct write) because a
     * single write of tens of MB stalls now and then in the kernel's dirty-page throttling (issue 35,
     * {@code LargePayloadBench}, 80 MB quiet: one write 24.6 ± 7.0 ms, 1 MiB writes 19.7 ± 0.6).
     */
    static final int SLICE = 1 << 20;

    private final FileChannel channel;
    private long position;

    FileBackend(FileChannel channel, long start) throws IOException {
        this.channel = channel;
        this.position = start;
        channel.position(start);
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        boolean gather = true;
        long total = 0;
        for (ByteBuffer b : sources) {
            gather &= b.remaining() <= SLICE;
            total += b.remaining();
        }
        if (gather) {
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

    /** One source in slices; its limit is restored even when a write throws (the caller retries the whole source). */
    private void writeSliced(ByteBuffer b) throws IOException {
        int end = b.limit();
        try {
            while (b.position() < end) {
                b.limit(Math.min(end, b.position() + SLICE));
                while (b.hasRemaining()) {
                    channel.write(b);
                }
            }
        } finally {
            b.limit(end);
        }
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
