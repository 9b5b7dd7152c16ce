package dev.spool.events;

import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A growable little-endian direct buffer that one thread encodes into; {@link #pos} is the end
 * of what is written. Reused across events: the encoding of a small event allocates nothing.
 */
final class Scratch {
    /** Capacity kept strongly between events; a larger buffer is kept only softly ({@link #release()}). */
    static final int RETAIN_BYTES = 1 << 20;

    ByteBuffer buf;
    int pos;
    private final ByteBuffer small;
    private SoftReference<ByteBuffer> spare;

    Scratch(int capacity) {
        buf = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        small = buf;
    }

    /** After an event: keeps a large buffer only softly, so one huge event does not pin memory. */
    void release() {
        pos = 0;
        buf.clear();
        if (buf != small) {
            spare = new SoftReference<>(buf);
            buf = small;
        }
    }

    /** Makes room for {@code n} more bytes after {@link #pos}. */
    void ensure(long n) {
        long need = pos + n;
        if (need > buf.capacity()) {
            if (need > Integer.MAX_VALUE - 64) {
                throw new EncodeException("event larger than 2 GiB");
            }
            long cap = Math.max(need, Math.min(Integer.MAX_VALUE - 64, 2L * buf.capacity()));
            ByteBuffer reuse = spare == null ? null : spare.get();
            ByteBuffer bigger;
            if (reuse != null && reuse.capacity() >= need && reuse != buf) {
                bigger = reuse;
                spare = null;
            } else {
                bigger = ByteBuffer.allocateDirect((int) cap).order(ByteOrder.LITTLE_ENDIAN);
            }
            bigger.put(0, buf, 0, pos);
            buf = bigger;
        }
    }

    void put(byte b) {
        ensure(1);
        buf.put(pos++, b);
    }

    void putInt(int v) {
        ensure(4);
        buf.putInt(pos, v);
        pos += 4;
    }

    void putLong(long v) {
        ensure(8);
        buf.putLong(pos, v);
        pos += 8;
    }

    void putVarint(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf.put(pos++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buf.put(pos++, (byte) v);
    }

    void putBytes(byte[] b) {
        ensure(b.length);
        buf.put(pos, b);
        pos += b.length;
    }
}
