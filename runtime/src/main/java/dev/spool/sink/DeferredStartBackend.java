package dev.spool.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.Callable;

/**
 * A channel back end whose start position is found by the writer thread, on its first use,
 * instead of by the thread that opens the sink. Finding where an existing event file's data ends
 * may walk the whole file (when it ends in a zero byte: {@code EventFiles.endOfData}); done at
 * open it ran on the application's first emit, which every other emitting thread then waited for.
 * Events emitted meanwhile wait in the sink's buffers as any others do.
 *
 * <p>Used by the writer thread only, like every {@link SinkBackend}. A start that cannot be found
 * fails that write as an {@link IOException}, retried like any other, counted and shown as the
 * sink's last error; given up at close, the bytes go to the recovery folder as any. Before the
 * start is known {@link #position()} answers {@link #UNKNOWN} (it never walks), and a
 * {@link #rewind} to {@code UNKNOWN} goes back to the start found since (nothing was written
 * before it).
 */
final class DeferredStartBackend implements SinkBackend {
    /** The position before the start is known. */
    static final long UNKNOWN = Long.MIN_VALUE;

    /** Finds the position writing starts at; may write to the file (cut padding). */
    @FunctionalInterface
    interface Start {
        long find() throws IOException;
    }

    private final SinkType type;
    private final FileChannel channel;
    private final Start start;
    private SinkBackend real;
    private long startedAt;

    DeferredStartBackend(SinkType type, FileChannel channel, Start start) {
        this.type = type;
        this.channel = channel;
        this.start = start;
    }

    /**
     * A back end whose start is what {@code start} returns: an {@link IOException} of it as it is,
     * any other exception as an {@code IOException} naming it.
     */
    static DeferredStartBackend calling(SinkType type, FileChannel channel, Callable<Long> start) {
        return new DeferredStartBackend(type, channel, () -> {
            try {
                return start.call();
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("cannot find where to write: " + e, e);
            }
        });
    }

    private SinkBackend real() throws IOException {
        if (real == null) {
            long at;
            try {
                at = start.find();
            } catch (OutOfMemoryError e) {
                // a garbage frame header may ask the walk for a buffer as large as the file: that
                // allocation failed and nothing else did; this write fails and is retried
                throw new IOException("cannot find where to write: " + e, e);
            }
            real = type == SinkType.MMAP ? new MmapBackend(channel, at) : new FileBackend(channel, at);
            startedAt = at;
        }
        return real;
    }

    @Override
    public void write(ByteBuffer[] sources) throws IOException {
        real().write(sources);
    }

    @Override
    public long position() {
        return real == null ? UNKNOWN : real.position(); // the write that follows finds the start
    }

    @Override
    public long startedPosition() throws IOException {
        return real().position();
    }

    @Override
    public void rewind(long position) throws IOException {
        if (position == UNKNOWN) {
            if (real != null) {
                real.rewind(startedAt);
            }
            return;
        }
        real().rewind(position);
    }

    @Override
    public void flush() throws IOException {
        if (real != null) {
            real.flush();
        }
    }

    @Override
    public void settle() throws IOException {
        real().settle(); // nothing written yet: still cut the padding, as an open did before
    }

    @Override
    public void close() throws IOException {
        try {
            real().close();
        } finally {
            if (real == null) {
                channel.close(); // the start could not be found: the channel is still the sink's to close
            }
        }
    }

    @Override
    public boolean wantsDirectBuffers() {
        return true; // both channel back ends do
    }
}
