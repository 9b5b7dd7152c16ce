package dev.spool.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/** Text streams: the same bytes, unframed, to a delegate {@link OutputStream}. */
final class StreamBackend implements SinkBackend {
    private final OutputStream delegate;
    private final byte[] chunk = new byte[64 << 10];
    private long position;

    StreamBackend(OutputStream delegate) {
        this.delegate = delegate;
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        for (ByteBuffer src : sources) {
            int n = src.remaining();
            if (src.hasArray()) {
                delegate.write(src.array(), src.arrayOffset() + src.position(), n);
                src.position(src.limit());
            } else {
                while (src.hasRemaining()) {
                    int k = Math.min(chunk.length, src.remaining());
                    src.get(chunk, 0, k);
                    delegate.write(chunk, 0, k);
                }
            }
            position += n;
        }
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void rewind(long position) {
        // A stream cannot be rewound; a retried write may repeat bytes the delegate took before failing.
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
