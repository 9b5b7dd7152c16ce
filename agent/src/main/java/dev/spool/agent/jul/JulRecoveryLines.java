package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Locale;

/**
 * Journaled records' lines as bytes, for recovery ({@link JulRecoveryFormatter}): each line is
 * written straight from its frame's payload into a batch's buffer ({@link Batch}) — no
 * {@link JulCapture}, no {@code String} per field, no {@code StringBuilder} and no encoding — when
 * every piece of it is ASCII; otherwise (and for any payload it does not take apart cleanly) the
 * record takes the general path, {@code formatter.format(decoder.decode(payload), formats).getBytes(charset)}.
 *
 * <p><b>The same bytes.</b> The direct path runs only for a plan of literals, {@code %s} of
 * arguments 2–6, second-resolution dates, {@code %1$tL} and {@code %1$tN}, every literal ASCII, and
 * a charset that encodes ASCII as itself (UTF-8, ISO-8859-1, US-ASCII), and only when each piece of
 * the line is ASCII: then the line's characters are its bytes in that charset. Each piece is what
 * {@link CompiledSimpleFormatter} appends for the decoded record: a field's payload bytes (ASCII:
 * their UTF-8 decoding is themselves), {@code "null"} for an absent one, cut to the precision and
 * padded to the width as {@code java.util.Formatter} does; a deferred message formatted by
 * {@link JulMessages#appendMessage} with this thread's {@link JulMessageFormats} (the call the
 * general path makes); the formatter's own per-second date texts ({@link CompiledSimpleFormatter#secondCache});
 * milliseconds and nanoseconds in the digits {@code 0-9} (the locale's zero digit is {@code '0'}).
 * A payload the decoder would refuse (a bad length, kind, parameter or zone) is never written
 * here: the general path throws for it, and the line is unformattable, as before.
 *
 * <p>Not thread-safe: one per formatting thread.
 */
final class JulRecoveryLines implements JulRecoveryFormatter.Lines {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final int FIELDS = 7; // source, logger, level, zone, locale, thrown, message
    private static final int ZONE = 3;
    private static final int LOCALE = 4;
    private static final int MESSAGE = 6;

    private final CompiledSimpleFormatter formatter;
    private final JulMessageFormats formats = new JulMessageFormats();
    private final JulJournalCodec.Decoder decoder = new JulJournalCodec.Decoder();
    private final Charset charset;
    /** Whether the plan and charset allow the direct path at all. */
    private final boolean direct;
    /** Per segment: a literal's bytes; a field's index into {@link #starts} (-1: not a field). */
    private final byte[][] literals;
    private final int[] fields;
    private final int[] starts = new int[FIELDS];
    private final int[] lengths = new int[FIELDS];
    private final StringBuilder message = new StringBuilder(128);
    private byte[] payload = new byte[512];
    private byte[] zoneBytes;
    private ZoneId zone;
    private byte[] localeBytes;
    private Locale locale;
    private byte[] patternBytes;
    private String pattern;
    private CompiledSimpleFormatter.SecondCache second;
    private byte[][] secondBytes;
    /** Lines written straight from their frame (tests: the direct path is taken). */
    int directLines;

    JulRecoveryLines(CompiledSimpleFormatter formatter, Charset charset) {
        this.formatter = formatter;
        this.charset = charset;
        int n = formatter.segments();
        literals = new byte[n][];
        fields = new int[n];
        boolean ok = charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.ISO_8859_1)
                || charset.equals(StandardCharsets.US_ASCII);
        for (int i = 0; i < n; i++) {
            int kind = formatter.kind(i);
            fields[i] = -1;
            if (kind == CompiledSimpleFormatter.LITERAL) {
                literals[i] = ascii(formatter.text(i));
                ok &= literals[i] != null;
            } else if (kind == CompiledSimpleFormatter.STRING) {
                int arg = formatter.arg(i);
                fields[i] = arg == 5 ? MESSAGE : arg == 6 ? 5 : arg - 2;
            } else {
                ok &= kind == CompiledSimpleFormatter.SECOND_DATE || kind == CompiledSimpleFormatter.MILLIS
                        || kind == CompiledSimpleFormatter.NANOS;
            }
        }
        this.direct = ok;
    }

    /**
     * Appends the line of the frame at {@code at} of {@code m} (a journal mapping) to {@code b} as its
     * line {@code i}; a record that cannot be formatted is an empty line marked unreadable.
     */
    @Override
    public void append(ByteBuffer m, int at, Batch b, int i) {
        int start = b.size;
        if (direct) {
            try {
                if (direct(m, at, b)) {
                    directLines++;
                    b.ends[i] = b.size;
                    return;
                }
            } catch (RuntimeException e) {
                // the general path decides: it formats the record or finds it unformattable
            }
            b.size = start;
        }
        try {
            ByteBuffer p = m.slice(at + MappedLogJournal.FRAME_HEADER, m.getInt(at));
            byte[] line = formatter.format(decoder.decode(p), formats).getBytes(charset);
            b.ensure(line.length);
            System.arraycopy(line, 0, b.bytes, b.size, line.length);
            b.size += line.length;
        } catch (RuntimeException e) {
            b.unreadable[i] = true;
        }
        b.ends[i] = b.size;
    }

    /** The line written straight from the payload; false (part of it may be in {@code b}) for the general path. */
    private boolean direct(ByteBuffer m, int at, Batch b) {
        int len = m.getInt(at);
        if (len < 13) {
            return false;
        }
        if (payload.length < len) {
            payload = new byte[Math.max(len, 2 * payload.length)];
        }
        byte[] p = payload;
        m.get(at + MappedLogJournal.FRAME_HEADER, p, 0, len);
        long epochSecond = (long) LONG.get(p, 0);
        int nano = (int) INT.get(p, 8);
        int pos = 12;
        for (int k = 0; k < FIELDS; k++) {
            if (k == MESSAGE) {
                if (pos >= len || (p[pos] != 0 && p[pos] != 1)) {
                    return false;
                }
                pos++; // the kind
            }
            if (pos + 4 > len) {
                return false;
            }
            int n = (int) INT.get(p, pos);
            pos += 4;
            if (n < -1 || n > len - pos) {
                return false;
            }
            starts[k] = pos;
            lengths[k] = n;
            pos += Math.max(n, 0);
        }
        boolean deferred = p[starts[MESSAGE] - 5] == 1;
        int paramsAt = pos;
        if (lengths[LOCALE] < 0 || nano < 0 || nano > 999_999_999) {
            return false;
        }
        Locale loc = locale(p, starts[LOCALE], lengths[LOCALE]);
        ZoneId z = lengths[ZONE] < 0 ? null : zone(p, starts[ZONE], lengths[ZONE]);
        Object[] params = deferred ? JulJournalCodec.params(ByteBuffer.wrap(p, paramsAt, len - paramsAt)
                .order(ByteOrder.LITTLE_ENDIAN)) : null;
        byte[][] dates = null;
        char zero = '0';
        if (formatter.uses(1)) {
            if (z == null) {
                return false;
            }
            dates = dates(formatter.secondCache(epochSecond, nano, z, loc));
            zero = second.zero();
        }
        for (int i = 0; i < literals.length; i++) {
            switch (formatter.kind(i)) {
                case CompiledSimpleFormatter.LITERAL -> b.put(literals[i], 0, literals[i].length);
                case CompiledSimpleFormatter.STRING -> {
                    int f = fields[i];
                    if (f == MESSAGE && deferred) {
                        if (formatter.width(i) != -1 || formatter.precision(i) != -1 || !message(b, p, params, loc)) {
                            return false;
                        }
                    } else if (!field(b, i, p, starts[f], lengths[f])) {
                        return false;
                    }
                }
                case CompiledSimpleFormatter.SECOND_DATE -> {
                    byte[] d = dates[formatter.secondIndex(i)];
                    if (d == null) {
                        return false;
                    }
                    b.put(d, 0, d.length);
                }
                case CompiledSimpleFormatter.MILLIS -> {
                    if (zero != '0') {
                        return false;
                    }
                    b.digits(nano / 1_000_000, 3);
                }
                default -> { // NANOS (the constructor allowed no other kind)
                    if (zero != '0') {
                        return false;
                    }
                    b.digits(nano, 9);
                }
            }
        }
        return true;
    }

    /** A field's ASCII text ("null" when absent), cut to segment {@code i}'s precision, padded to its width; false when not ASCII. */
    private boolean field(Batch b, int i, byte[] p, int from, int n) {
        byte[] src = p;
        if (n < 0) {
            src = NULL;
            from = 0;
            n = NULL.length;
        }
        int precision = formatter.precision(i);
        if (precision != -1 && precision < n) {
            n = precision; // ASCII: characters are bytes
        }
        int pad = formatter.width(i) - n;
        boolean left = formatter.leftJustify(i);
        if (!left) {
            b.spaces(pad);
        }
        b.ensure(n);
        byte[] d = b.bytes;
        int o = b.size;
        int sign = 0;
        for (int k = 0; k < n; k++) {
            byte x = src[from + k];
            d[o + k] = x;
            sign |= x;
        }
        if (sign < 0) {
            return false;
        }
        b.size = o + n;
        if (left) {
            b.spaces(pad);
        }
        return true;
    }

    /** A deferred message, formatted as the general path formats it; false when not ASCII. */
    private boolean message(Batch b, byte[] p, Object[] params, Locale loc) {
        String pat = pattern(p, starts[MESSAGE], lengths[MESSAGE]);
        if (pat == null) {
            return false;
        }
        StringBuilder sb = message;
        sb.setLength(0);
        JulMessages.appendMessage(sb, pat, null, params, formats, loc);
        int n = sb.length();
        b.ensure(n);
        byte[] d = b.bytes;
        int o = b.size;
        for (int k = 0; k < n; k++) {
            char c = sb.charAt(k);
            if (c >= 0x80) {
                return false;
            }
            d[o + k] = (byte) c;
        }
        b.size = o + n;
        if (sb.capacity() > 1 << 16) {
            message.setLength(0);
            message.trimToSize();
        }
        return true;
    }

    /** The date texts of the formatter's cache as ASCII bytes (null: not ASCII), made once per cache entry. */
    private byte[][] dates(CompiledSimpleFormatter.SecondCache c) {
        if (c != second) {
            String[] parts = c.parts();
            byte[][] d = new byte[parts.length][];
            for (int k = 0; k < parts.length; k++) {
                d[k] = ascii(parts[k]);
            }
            secondBytes = d;
            second = c;
        }
        return secondBytes;
    }

    private String pattern(byte[] p, int from, int n) {
        if (n < 0) {
            return null;
        }
        if (patternBytes == null || !Arrays.equals(patternBytes, 0, patternBytes.length, p, from, from + n)) {
            patternBytes = Arrays.copyOfRange(p, from, from + n);
            pattern = new String(patternBytes, StandardCharsets.UTF_8);
        }
        return pattern;
    }

    private ZoneId zone(byte[] p, int from, int n) {
        if (zoneBytes == null || !Arrays.equals(zoneBytes, 0, zoneBytes.length, p, from, from + n)) {
            ZoneId id = ZoneId.of(new String(p, from, n, StandardCharsets.UTF_8)); // throws as the decoder's
            zoneBytes = Arrays.copyOfRange(p, from, from + n);
            zone = id;
        }
        return zone;
    }

    private Locale locale(byte[] p, int from, int n) {
        if (localeBytes == null || !Arrays.equals(localeBytes, 0, localeBytes.length, p, from, from + n)) {
            locale = Locale.forLanguageTag(new String(p, from, n, StandardCharsets.UTF_8));
            localeBytes = Arrays.copyOfRange(p, from, from + n);
        }
        return locale;
    }

    /** The text's bytes when it is all ASCII, else null. */
    static byte[] ascii(String s) {
        byte[] b = new byte[s.length()];
        for (int k = 0; k < b.length; k++) {
            char c = s.charAt(k);
            if (c >= 0x80) {
                return null;
            }
            b[k] = (byte) c;
        }
        return b;
    }

    /**
     * A batch's lines in one array: line {@code i} is {@code bytes[from(i), ends[i])}; an
     * unformattable record's line is empty and {@code unreadable[i]}.
     */
    static final class Batch {
        byte[] bytes;
        int size;
        final int[] ends;
        final boolean[] unreadable;

        Batch(int lines, int capacity) {
            bytes = new byte[Math.max(capacity, 64)];
            ends = new int[lines];
            unreadable = new boolean[lines];
        }

        int lines() {
            return ends.length;
        }

        int from(int i) {
            return i == 0 ? 0 : ends[i - 1];
        }

        void ensure(int n) {
            if (bytes.length - size < n) {
                bytes = Arrays.copyOf(bytes, Math.max(size + n, bytes.length * 2));
            }
        }

        void put(byte[] src, int from, int n) {
            ensure(n);
            System.arraycopy(src, from, bytes, size, n);
            size += n;
        }

        void spaces(int n) {
            if (n > 0) {
                ensure(n);
                Arrays.fill(bytes, size, size + n, (byte) ' ');
                size += n;
            }
        }

        /** {@code value} (0 ≤ value < 10^digits) in exactly {@code digits} ASCII digits, zero-padded. */
        void digits(int value, int digits) {
            ensure(digits);
            for (int k = size + digits - 1; k >= size; k--) {
                bytes[k] = (byte) ('0' + value % 10);
                value /= 10;
            }
            size += digits;
        }
    }
}
