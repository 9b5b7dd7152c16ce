package dev.spool.agent.logback;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One event's line being built by a {@link CompiledPatternLayout}: a reusable byte array written in
 * the encoder's charset, piece by piece, so that the bytes equal {@code String.getBytes(charset)}
 * of the whole line Logback's {@code PatternLayout} would have built.
 *
 * <p>Why piecewise encoding is exact: for the charsets accepted ({@link #supports}: UTF-8,
 * US-ASCII, ISO-8859-1) a character's bytes depend on that character alone, except a surrogate
 * pair, which encodes as one unit. A piece that starts with a low surrogate or ends with a high
 * surrogate could therefore pair with its neighbour in the whole line: such a piece makes
 * {@link #text} return false and the caller leaves the whole event to Logback.
 *
 * <p>Not thread-safe: one per compiled layout, used under the appender's lock.
 */
final class LayoutBytes {

    private final Charset charset;
    private byte[] buf = new byte[256];
    private int pos;

    LayoutBytes(Charset charset) {
        this.charset = charset;
    }

    /** Whether {@code charset} encodes each character (or surrogate pair) on its own, ASCII as itself. */
    static boolean supports(Charset charset) {
        return charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)
                || charset.equals(StandardCharsets.ISO_8859_1);
    }

    void reset() {
        pos = 0;
    }

    int length() {
        return pos;
    }

    byte[] toArray() {
        return Arrays.copyOf(buf, pos);
    }

    void bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    void spaces(int n) {
        ensure(n);
        Arrays.fill(buf, pos, pos + n, (byte) ' ');
        pos += n;
    }

    /** Overwrites three bytes at {@code at} (from the line's start) with {@code value}'s three digits. */
    void digits3(int at, int value) {
        buf[at] = (byte) ('0' + value / 100);
        buf[at + 1] = (byte) ('0' + value / 10 % 10);
        buf[at + 2] = (byte) ('0' + value % 10);
    }

    /** The bytes of {@code s} from {@code from} to {@code to}; false when the piece's ends could pair with a neighbour. */
    boolean text(CharSequence s, int from, int to) {
        if (from >= to) {
            return true;
        }
        if (Character.isLowSurrogate(s.charAt(from)) || Character.isHighSurrogate(s.charAt(to - 1))) {
            return false;
        }
        ensure(to - from);
        byte[] b = buf;
        int p = pos;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                pos = p;
                bytes(s.subSequence(i, to).toString().getBytes(charset)); // the JDK's own encoding from here
                return true;
            }
            b[p++] = (byte) c;
        }
        pos = p;
        return true;
    }

    boolean text(CharSequence s) {
        return text(s, 0, s.length());
    }

    /**
     * {@code s} as Logback's {@code FormattingConverter.write} appends it under {@code format}
     * (null: as is, {@code "null"} for null): truncated to max from the left or right, padded to
     * min on the left or right.
     */
    boolean formatted(String s, LayoutFormat format) {
        if (format == null) {
            return text(s == null ? "null" : s);
        }
        if (s == null) {
            if (format.min() > 0) {
                spaces(format.min());
            }
            return true;
        }
        int len = s.length();
        if (len > format.max()) {
            return format.leftTruncate() ? text(s, len - format.max(), len) : text(s, 0, format.max());
        }
        if (len < format.min()) {
            if (format.leftPad()) {
                spaces(format.min() - len);
                return text(s);
            }
            boolean ok = text(s);
            spaces(format.min() - len);
            return ok;
        }
        return text(s);
    }

    /** The encoded form of {@code s} formatted as {@link #formatted}, or null when it cannot stand alone. */
    byte[] encodeAlone(String s, LayoutFormat format) {
        int mark = pos;
        boolean ok = formatted(s, format);
        byte[] out = ok ? Arrays.copyOfRange(buf, mark, pos) : null;
        pos = mark;
        return out;
    }

    /** The encoded form of {@code s} as is, or null when it cannot stand alone. */
    byte[] encodeAlone(CharSequence s) {
        int mark = pos;
        boolean ok = text(s);
        byte[] out = ok ? Arrays.copyOfRange(buf, mark, pos) : null;
        pos = mark;
        return out;
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }
}
