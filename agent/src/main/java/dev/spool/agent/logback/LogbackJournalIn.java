package dev.spool.agent.logback;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@link LogbackJournalCodec} payload written by {@link LogbackJournalOut}, checking every
 * length and count against the bytes left: a damaged payload throws {@link IllegalArgumentException}
 * naming the offset (from the payload's start), never another exception and never a huge allocation.
 *
 * <p>Not thread-safe: one per {@code decode} call.
 */
final class LogbackJournalIn {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] b;
    private final int start;
    private final int end;
    private int at;

    LogbackJournalIn(byte[] b, int off, int len) {
        if (b == null || off < 0 || len < 0 || off > b.length - len) {
            throw new IllegalArgumentException("no payload at " + off + " length " + len);
        }
        this.b = b;
        this.start = off;
        this.end = off + len;
        this.at = off;
    }

    /** The offset of the next byte, from the payload's start. */
    int offset() {
        return at - start;
    }

    /** The bytes not read yet. */
    int left() {
        return end - at;
    }

    /** A damaged payload: {@code what} at the current offset. */
    IllegalArgumentException damaged(String what) {
        return new IllegalArgumentException("damaged Logback journal payload at offset " + offset() + " of " + (end - start)
                + ": " + what);
    }

    private void need(int n, String what) {
        if (n < 0 || n > end - at) {
            throw damaged(what + " needs " + n + " bytes, " + (end - at) + " left");
        }
    }

    int i8() {
        need(1, "a byte");
        return b[at++];
    }

    int i32() {
        need(4, "an int");
        int v = (int) INT.get(b, at);
        at += 4;
        return v;
    }

    long i64() {
        need(8, "a long");
        long v = (long) LONG.get(b, at);
        at += 8;
        return v;
    }

    boolean bool() {
        int v = i8();
        if (v != 0 && v != 1) {
            at--;
            throw damaged("a flag of " + v);
        }
        return v == 1;
    }

    /** A count of items each at least {@code eachBytes} long; -1 stands for null (allowed when {@code nullable}). */
    int count(int eachBytes, boolean nullable, String what) {
        int n = i32();
        if (n == -1 && nullable) {
            return -1;
        }
        if (n < 0 || (long) n * eachBytes > end - at) {
            at -= 4;
            throw damaged(what + " count " + n);
        }
        return n;
    }

    String str() {
        int h = i32();
        if (h == -1) {
            return null;
        }
        if (h < 0) {
            at -= 4;
            throw damaged("a string header " + h);
        }
        int n = h >>> 1;
        if ((h & 1) == 0) {
            need(n, "a string");
            String s = new String(b, at, n, StandardCharsets.ISO_8859_1);
            at += n;
            return s;
        }
        need(n * 2, "a string");
        char[] cs = new char[n];
        for (int i = 0; i < n; i++, at += 2) {
            cs[i] = (char) ((b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8);
        }
        return new String(cs);
    }

    /** A value written by {@link LogbackJournalOut#value}. */
    Object value() {
        int tag = i8();
        return switch (tag) {
            case LogbackJournalOut.NULL -> null;
            case LogbackJournalOut.STRING -> str();
            case LogbackJournalOut.INTEGER -> i32();
            case LogbackJournalOut.LONG_TAG -> i64();
            case LogbackJournalOut.SHORT -> (short) ranged(Short.MIN_VALUE, Short.MAX_VALUE);
            case LogbackJournalOut.BYTE -> (byte) ranged(Byte.MIN_VALUE, Byte.MAX_VALUE);
            case LogbackJournalOut.DOUBLE -> Double.longBitsToDouble(i64());
            case LogbackJournalOut.FLOAT -> Float.intBitsToFloat(i32());
            case LogbackJournalOut.BOOLEAN -> bool();
            case LogbackJournalOut.CHARACTER -> (char) ranged(Character.MIN_VALUE, Character.MAX_VALUE);
            default -> {
                at--;
                throw damaged("a value tag " + tag);
            }
        };
    }

    private int ranged(int min, int max) {
        int v = i32();
        if (v < min || v > max) {
            at -= 4;
            throw damaged("a value " + v + " outside " + min + ".." + max);
        }
        return v;
    }

    /** Throws unless every byte was read. */
    void finish() {
        if (at != end) {
            throw damaged((end - at) + " bytes after the event");
        }
    }
}
