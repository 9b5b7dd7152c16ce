package dev.spool.sink;

import java.nio.ByteBuffer;

/**
 * The buffered path of a {@link ByteSink}: a producer copies its unit into the current
 * {@link SinkBuffer} with claim, write, commit and returns. The producer whose reservation seals
 * the buffer hands it to the writer and installs a free one (see {@link BufferHandOff}); a unit
 * larger than a buffer goes the direct path ({@link DirectWrites}), and a closed sink writes it
 * through ({@link SinkClosing}).
 *
 * <p><b>Threads.</b> Any producer thread, many at once. Lock-free while a buffer has room; when
 * none has, the sink's {@link SinkPolicy} decides: {@code BLOCK} waits for one, {@code DROP}
 * refuses, {@code SYNC} writes the unit directly; while the full buffer is still being handed off
 * {@code DROP} spins a moment at most and {@code SYNC} waits like {@code BLOCK}. A wait ends after
 * {@code spool.sink.wait.millis}, or as soon as the writer has been failing that long (the unit
 * fails). A producer that dies at any point (e.g. {@code StackOverflowError}) leaves nothing the
 * writer cannot get past: no call between the reservation and the {@code try}, and a failed copy
 * is recorded as a hole (see the package documentation, which also gives the memory-ordering
 * rules).
 */
final class BufferedAppends {
    private final ByteSink sink;

    BufferedAppends(ByteSink sink) {
        this.sink = sink;
    }

    /**
     * {@link ByteSink#append(ByteBuffer, ByteBuffer)} (through {@link ByteSink#offer}) telling
     * {@link ByteSink#OK}, {@link ByteSink#DROPPED} (by policy) and {@link ByteSink#FAILED}.
     */
    int offer(ByteBuffer first, ByteBuffer second) {
        int n1 = first.remaining();
        int n = n1 + (second == null ? 0 : second.remaining());
        if (n == 0) {
            return ByteSink.OK;
        }
        if (sink.closed) {
            return writeThrough(first, second);
        }
        int idle = 0;
        long waitStart = 0;
        while (true) {
            BufferHandOff.Slot slot = sink.slots.currentSlot();
            SinkBuffer buf = slot.buf;
            if (n > buf.capacity) {
                return buf == BufferHandOff.CLOSED_SLOT.buf ? writeThrough(first, second)
                        : sink.offerDirect(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
            }
            long r = buf.reserve(n);
            if (r >= 0) {
                boolean copied = false;          // inline, no call between reserve and try: see package-info
                try {
                    buf.data.put((int) r, first, first.position(), n1);
                    if (second != null) {
                        buf.data.put((int) r + n1, second, second.position(), n - n1);
                    }
                    copied = true;
                } finally {
                    if (copied) {
                        buf.commit(n);           // if this throws, the writer's bounded wait writes the copied bytes
                    } else {
                        synchronized (buf.holes) {   // no call: this thread may be at its stack limit
                            int h = buf.holeCount;
                            if (h < SinkBuffer.MAX_HOLES) {
                                buf.holes[h] = (r << 32) | n;
                            }
                            buf.holeCount = h + 1;
                            buf.deferredBytes += n;
                            buf.deferredUnits++;
                        }
                    }
                }
                return ByteSink.OK;
            }
            if (r == SinkBuffer.SEALED_BY_ME) {
                sink.slots.handOff(buf);
            }
            if (buf == BufferHandOff.CLOSED_SLOT.buf) {
                return writeThrough(first, second);
            }
            boolean moving = buf.claimedAcquire() >= SinkBuffer.CLOSED || !buf.isEnqueued();
            if (!moving && sink.slots.tryReplace(slot)) {
                continue;
            }
            SinkPolicy p = sink.policy;
            if (p == SinkPolicy.DROP && (!moving || idle >= Idle.SPINS)) {
                sink.dropped.increment();        // DROP never waits beyond a moment's spin
                return ByteSink.DROPPED;
            }
            if (p == SinkPolicy.SYNC && !moving) {
                return sink.offerDirect(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
            }
            if (waitStart == 0) {
                waitStart = System.nanoTime() | 1;
            } else if (waitedTooLong(waitStart)) {
                return sink.fail("a " + p + " producer waited " + sink.waitMillis + " ms for a free buffer");
            }
            idle = Idle.step(idle);
        }
    }

    /** True when a wait that began at {@code start} is past the bound, or the writer is stuck failing that long. */
    private boolean waitedTooLong(long start) {
        return System.nanoTime() - start >= sink.waitNanos || sink.writerStalledLongerThan(sink.waitNanos);
    }

    private int writeThrough(ByteBuffer first, ByteBuffer second) {
        return sink.closing.writeThrough(second == null ? new ByteBuffer[] {first} : new ByteBuffer[] {first, second});
    }
}
