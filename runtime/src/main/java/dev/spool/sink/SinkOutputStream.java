package dev.spool.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/** The stream of {@link SinkStreams#wrap}. */
final class SinkOutputStream extends OutputStream {
    final ByteSink sink;
    private final byte[] one = new byte[1];

    SinkOutputStream(ByteSink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void write(int b) {
        one[0] = (byte) b;
        sink.append(one, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len >= sink.directThreshold) {
            sink.appendDirect(java.nio.ByteBuffer.wrap(b, off, len));
        } else {
            sink.append(b, off, len);
        }
    }

    @Override
    public void flush() {
        sink.requestFlush();
    }

    @Override
    public void close() throws IOException {
        sink.close();
    }
}
