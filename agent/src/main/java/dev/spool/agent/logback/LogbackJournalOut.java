package dev.spool.agent.logback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The bytes of one {@link LogbackJournalCodec} payload as it is written, little-endian, into the
 * caller's scratch array (grown by doubling; a grown array up to 64 KiB is kept as the thread's
 * scratch, a larger one is not). A string is stored exactly, whatever its chars (a lone surrogate
 * too, which UTF-8 would replace): an int header {@code length << 1 | wide}, -1 for null, then one
 * byte per char when every char is below 256, else two (UTF-16LE).
 *
 * <p>Not thread-safe: one per {@code encode} call, on the caller's thread.
 */
final class LogbackJournalOut {
    /** The caller's scratch (a JDK {@code byte[]}: nothing of Spool's is pinned by a host thread). */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[512]);
    private static final int KEEP = 64 << 10;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** Tags of a carried value ({@link #value}); a value of any other class is not carried. */
    static final byte NULL = 0;
    static final byte STRING = 1;
    static final byte INTEGER = 2;
    static final byte LONG_TAG = 3;
    static final byte SHORT = 4;
    static final byte BYTE = 5;
    static final byte DOUBLE = 6;
    static final byte FLOAT = 7;
    static final byte BOOLEAN = 8;
    static final byte CHARACTER = 9;

    private final boolean scratch;
    private byte[] b;
    private int at;

    /** Writing into this thread's scratch array. */
    LogbackJournalOut() {
        this.b = SCRATCH.get();
        this.scratch = true;
    }

    /** Writing into an array of its own (a part cached across events). */
    LogbackJournalOut(int size) {
        this.b = new byte[size];
        this.scratch = false;
    }

    /** The bytes written so far, as an array of their own. */
    byte[] copy() {
        return java.util.Arrays.copyOf(b, at);
    }

    /** {@code bytes} as they are (a part written earlier by another {@code LogbackJournalOut}). */
    void raw(byte[] bytes) {
        room(bytes.length);
        System.arraycopy(bytes, 0, b, at, bytes.length);
        at += bytes.length;
    }

    /** The payload: the scratch array from 0 to its position. */
    ByteBuffer done() {
        return ByteBuffer.wrap(b).position(at);
    }

    private void room(int n) {
        if (n > b.length - at) {
            long want = Math.max((long) b.length * 2, (long) at + n);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("the event needs more than 2 GiB of journal");
            }
            byte[] bigger = java.util.Arrays.copyOf(b, (int) want);
            if (scratch && bigger.length <= KEEP) {
                SCRATCH.set(bigger);
            }
            b = bigger;
        }
    }

    void i8(int v) {
        room(1);
        b[at++] = (byte) v;
    }

    void i32(int v) {
        room(4);
        INT.set(b, at, v);
        at += 4;
    }

    void i64(long v) {
        room(8);
        LONG.set(b, at, v);
        at += 8;
    }

    void bool(boolean v) {
        i8(v ? 1 : 0);
    }

    void str(String s) {
        if (s == null) {
            i32(-1);
            return;
        }
        int n = s.length();
        if (n > (Integer.MAX_VALUE >> 2)) {
            throw new IllegalArgumentException("a string of " + n + " chars");
        }
        room(4 + n);
        byte[] a = b;
        int p = at + 4;
        for (int i = 0; i < n; i++) { // one pass while every char fits a byte (the common case)
            char c = s.charAt(i);
            if (c > 0xFF) {
                wide(s, n);
                return;
            }
            a[p++] = (byte) c;
        }
        INT.set(a, at, n << 1);
        at = p;
    }

    private void wide(String s, int n) {
        room(4 + n * 2);
        byte[] a = b;
        INT.set(a, at, n << 1 | 1);
        int p = at + 4;
        for (int i = 0; i < n; i++, p += 2) {
            char c = s.charAt(i);
            a[p] = (byte) c;
            a[p + 1] = (byte) (c >>> 8);
        }
        at = p;
    }

    /** Whether {@code v} is a value this journal carries exactly (null, a String, a boxed primitive). */
    static boolean carried(Object v) {
        return v == null || v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte || v instanceof Double || v instanceof Float || v instanceof Boolean
                || v instanceof Character;
    }

    /** A tag and the value ({@link #carried} must hold). */
    void value(Object v) {
        if (v == null) {
            i8(NULL);
        } else if (v instanceof String s) {
            i8(STRING);
            str(s);
        } else if (v instanceof Integer x) {
            i8(INTEGER);
            i32(x);
        } else if (v instanceof Long x) {
            i8(LONG_TAG);
            i64(x);
        } else if (v instanceof Short x) {
            i8(SHORT);
            i32(x);
        } else if (v instanceof Byte x) {
            i8(BYTE);
            i32(x);
        } else if (v instanceof Double x) {
            i8(DOUBLE);
            i64(Double.doubleToRawLongBits(x));
        } else if (v instanceof Float x) {
            i8(FLOAT);
            i32(Float.floatToRawIntBits(x));
        } else if (v instanceof Boolean x) {
            i8(BOOLEAN);
            bool(x);
        } else if (v instanceof Character x) {
            i8(CHARACTER);
            i32(x);
        } else {
            throw new IllegalArgumentException("not a value the journal carries: " + v.getClass().getName());
        }
    }
}
