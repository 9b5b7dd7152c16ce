package dev.spool.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The stream of {@link SinkStreams#wrap}. Failures reach the caller where plain stream I/O would
 * have reported them, as {@link IOException}s (JUL's {@code StreamHandler} hands them to its
 * {@code ErrorManager}, Logback's {@code OutputStreamAppender} to its status):
 * <ul>
 *   <li>{@code write} throws when its bytes were not accepted and will not be written: the
 *       output is closed, a bounded wait ran out ({@code spool.sink.wait.millis}: no free buffer
 *       under {@code block}, a direct write not written, the writer failing that long), or a
 *       write after close failed. A drop by policy {@code drop} is counted, not thrown.</li>
 *   <li>{@code flush} throws when the sink recorded an error (e.g. a full disk, retried by the
 *       writer) since the last one this stream reported.</li>
 * </ul>
 */
final class SinkOutputStream extends OutputStream {
    final ByteSink sink;
    private final byte[] one = new byte[1];
    /** Errors of the sink already reported through this stream. */
    private volatile long reportedErrors;

    SinkOutputStream(ByteSink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        one[0] = (byte) b;
        check(sink.offer(ByteBuffer.wrap(one, 0, 1), null));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ByteBuffer src = ByteBuffer.wrap(b, off, len);
        check(len >= sink.directThreshold ? sink.offerDirect(new ByteBuffer[] {src}) : sink.offer(src, null));
    }

    private void check(int outcome) throws IOException {
        if (outcome == ByteSink.FAILED) {
            reportedErrors = sink.errors.get();
            throw new IOException(sink.backendClosed ? "Stream Closed (spool sink " + sink.name + ")"
                    : "spool sink " + sink.name + ": bytes not written: " + sink.lastError);
        }
    }

    /** A cheap request to write soon; throws when an error was recorded since the last one reported. */
    @Override
    public void flush() throws IOException {
        sink.requestFlush();
        reportNewErrors();
    }

    /** Blocks (bounded) until everything written so far is with the OS; see {@link SinkStreams#drain}. */
    void drain() throws IOException {
        if (!sink.flush(sink.waitMillis)) {
            reportNewErrors();
            if (sink.isClosed()) {
                throw new IOException("Stream Closed (spool sink " + sink.name + ")");
            }
            throw new IOException("spool sink " + sink.name + ": not everything was written within "
                    + sink.waitMillis + " ms (spool.sink.wait.millis); it stays queued");
        }
        reportNewErrors();
    }

    private void reportNewErrors() throws IOException {
        long e = sink.errors.get();
        if (e > reportedErrors) {
            reportedErrors = e;
            throw new IOException("spool sink " + sink.name + ": " + sink.lastError);
        }
    }

    @Override
    public void close() throws IOException {
        sink.close();
    }
}
