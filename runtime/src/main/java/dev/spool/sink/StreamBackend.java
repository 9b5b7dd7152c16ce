package dev.spool.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** Text streams: the same bytes, unframed, to a delegate {@link OutputStream}. */
final class StreamBackend implements SinkBackend {
    private final OutputStream delegate;
    private final byte[] chunk = new byte[64 << 10];
    private long position;
    /**
     * The batch whose write failed part-way and how many of its bytes the delegate had taken: the
     * writer retries a batch with the same array, its positions reset, and the retry skips them (a
     * log file reopened after it was closed under the sink must not get them twice). A short write
     * inside one {@code delegate.write} that then fails cannot be seen here and may still repeat.
     */
    private ByteBuffer[] failed;
    private long taken;

    StreamBackend(OutputStream delegate) {
        this.delegate = delegate;
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        long skip = sources == failed ? taken : 0;
        failed = null;
        taken = 0;
        long done = 0;
        try {
            for (ByteBuffer src : sources) {
                int n = src.remaining();
                int s = (int) Math.min(skip, n);
                if (s > 0) {
                    src.position(src.position() + s);
                    skip -= s;
                    done += s;
                }
                if (src.hasArray()) {
                    int k = src.remaining();
                    delegate.write(src.array(), src.arrayOffset() + src.position(), k);
                    src.position(src.limit());
                    done += k;
                } else {
                    while (src.hasRemaining()) {
                        int k = Math.min(chunk.length, src.remaining());
                        src.get(chunk, 0, k);
                        delegate.write(chunk, 0, k);
                        done += k;
                    }
                }
                position += n;
            }
        } catch (IOException | RuntimeException e) {
            failed = sources;
            taken = done;
            throw e;
        }
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void rewind(long position) {
        // A stream cannot be rewound: a retried batch skips the bytes the delegate took before it failed.
        this.position = position;
    }

    @Override
    public void flush() throws IOException {
        delegate.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            delegate.flush();
        } finally {
            delegate.close();
        }
    }

    @Override
    public boolean wantsDirectBuffers() {
        return false;
    }
}
