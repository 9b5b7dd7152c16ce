package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

/**
 * A captured {@code SimpleFormatter} record as a journal frame's payload ({@link MappedLogJournal}):
 * everything {@link CompiledSimpleFormatter} reads, so recovery formats the line without the host.
 * The message goes as captured: its text, or (deferred) the raw pattern and its parameters, each
 * an immutable JDK value ({@link JulMessages#allImmutable}) stored typed, so {@code MessageFormat}
 * gives recovery the writer's text. Little-endian:
 * <pre>
 * epochSecond (long) nano (int) source logger level zone locale thrown (strings) kind (byte)
 *   kind 0: message (string)        kind 1: pattern (string) count (int) then per parameter a tag and its value
 * string: length (int, -1 for null) + UTF-8
 * </pre>
 * Encoding runs on the caller's thread and reads only the capture (no host code: the parameters
 * are JDK values); the last level's, zone's, locale's and logger name's bytes are cached by
 * identity. Thread-safe (the caches are immutable holders in volatile fields).
 */
final class JulJournalCodec implements JulJournalEncoder {
    private record Cached(Object key, byte[] bytes) {
    }

    /** A level's localized name depends on the default locale too ({@code Level.getLocalizedName()}). */
    private record LevelName(Object level, Locale locale, String name, byte[] bytes) {
    }

    private volatile LevelName level = new LevelName(null, null, null, null);
    private volatile Cached zone = new Cached(new Object(), null);
    private volatile Cached locale = new Cached(new Object(), null);
    private volatile Cached logger = new Cached(new Object(), null);

    /** A caller's scratch array (a JDK {@code byte[]}: nothing of Spool's is pinned by a host thread). */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[512]);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The payload of {@code r}: the buffer's array up to its position (the array is this thread's scratch). */
    @Override
    public ByteBuffer encode(JulCapture r) {
        LevelName ln = level;
        Locale now = Locale.getDefault();
        if (r.level == null || ln.level != r.level || ln.locale != now) {
            String name = r.levelName();
            ln = new LevelName(r.level, now, name, utf8(name));
            level = ln;
        }
        byte[] lv = ln.bytes;
        r.levelNameAtCall(ln.name); // the writer prints the name the journal holds
        Cached c = logger;
        byte[] lg = c.key == r.loggerName ? c.bytes : store(r.loggerName, utf8(r.loggerName), x -> logger = x);
        Object z = r.zoneAtCall();
        c = zone;
        byte[] zn = z == null ? null : c.key == z ? c.bytes : store(z, utf8(JulDefaultZone.zoneId(z).getId()), x -> zone = x);
        c = locale;
        byte[] lc = c.key == r.locale ? c.bytes : store(r.locale, utf8(r.locale.toLanguageTag()), x -> locale = x);
        Object[] params = r.capturedParameters();
        String message = params == null ? r.capturedMessage() : r.capturedRawMessage();
        byte[] b = SCRATCH.get();
        int at;
        while (true) {
            at = encodeInto(b, r, lv, lg, zn, lc, message, params);
            if (at >= 0) {
                break;
            }
            b = new byte[b.length * 2];
            if (b.length <= 64 << 10) {
                SCRATCH.set(b); // a long record: a larger scratch kept (a huge one is not)
            }
        }
        return ByteBuffer.wrap(b).position(at);
    }

    /** The payload's length written into {@code b}, or -1 when it does not fit. */
    private static int encodeInto(byte[] b, JulCapture r, byte[] lv, byte[] lg, byte[] zn, byte[] lc, String message,
                                  Object[] params) {
        if (b.length < 13) {
            return -1;
        }
        LONG.set(b, 0, r.epochSecond);
        INT.set(b, 8, r.nano);
        int at = 12;
        at = put(b, at, r.source);
        at = put(b, at, lg);
        at = put(b, at, lv);
        at = put(b, at, zn);
        at = put(b, at, lc);
        at = put(b, at, r.thrownText);
        if (at < 0 || at >= b.length) {
            return -1;
        }
        b[at++] = (byte) (params == null ? 0 : 1);
        at = put(b, at, message);
        if (params != null && at >= 0) {
            ByteBuffer rest = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            int need = 4;
            for (Object p : params) {
                need += 1 + paramSize(p);
            }
            if (at + need > b.length) {
                return -1;
            }
            rest.position(at).putInt(params.length);
            for (Object p : params) {
                putParam(rest, p);
            }
            at = rest.position();
        }
        return at;
    }

    /** A string (length, then UTF-8; an ASCII one copied char by char, no array of its own), or -1 when it does not fit. */
    private static int put(byte[] b, int at, String s) {
        if (at < 0) {
            return -1;
        }
        if (s == null) {
            return put(b, at, (byte[]) null);
        }
        int n = s.length();
        if (at + 4 + n > b.length) {
            return -1;
        }
        int to = at + 4;
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80) {
                return put(b, at, utf8(s)); // not ASCII: the JDK's encoder
            }
            b[to + i] = (byte) ch;
        }
        INT.set(b, at, n);
        return to + n;
    }

    private static int put(byte[] b, int at, byte[] s) {
        if (at < 0 || at + 4 + (s == null ? 0 : s.length) > b.length) {
            return -1;
        }
        if (s == null) {
            INT.set(b, at, -1);
            return at + 4;
        }
        INT.set(b, at, s.length);
        System.arraycopy(s, 0, b, at + 4, s.length);
        return at + 4 + s.length;
    }

    /**
     * The captures payloads hold (recovery), formatted by {@link CompiledSimpleFormatter} as the
     * writer would; decodes them one after another (one thread): the fields that repeat from record to record
     * (source, logger, level name, zone, locale) reuse the last record's {@code String}, {@code ZoneId}
     * and {@code Locale} when their bytes are the same, so a recovery of 400,000 records makes no
     * string, zone or locale per record for them (a full 64 MiB ring's recovery spent most of its
     * time decoding and formatting).
     */
    static final class Decoder {
        private static final int REPEATED = 5;
        private final byte[][] lastBytes = new byte[REPEATED][];
        private final String[] lastText = new String[REPEATED];
        private byte[] scratch = new byte[256];
        private String zoneText;
        private ZoneId zone;
        private final JulLastLocale locales = new JulLastLocale();

        JulCapture decode(ByteBuffer b) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            long epochSecond = b.getLong();
            int nano = b.getInt();
            String source = repeated(b, 0);
            String loggerName = repeated(b, 1);
            String levelName = repeated(b, 2);
            String zoneId = repeated(b, 3);
            String localeTag = repeated(b, 4);
            String thrown = str(b);
            int kind = b.get();
            String message = str(b);
            Object[] params = null;
            if (kind == 1) {
                params = params(b);
            } else if (kind != 0) {
                throw new IllegalArgumentException("message kind " + kind);
            }
            return JulCapture.restored(epochSecond, nano, source, loggerName, levelName, zone(zoneId),
                    locales.of(localeTag), thrown, kind == 0 ? message : null, kind == 1 ? message : null, params);
        }

        /** The next string; the last one of field {@code k} (the same object) when its bytes are the same. */
        private String repeated(ByteBuffer b, int k) {
            int n = b.getInt();
            if (n == -1) {
                return null;
            }
            if (n < 0 || n > b.remaining()) {
                throw new IllegalArgumentException("string length " + n);
            }
            if (scratch.length < n) {
                scratch = new byte[Math.max(n, 2 * scratch.length)];
            }
            b.get(scratch, 0, n);
            byte[] last = lastBytes[k];
            if (last != null && Arrays.equals(last, 0, last.length, scratch, 0, n)) {
                return lastText[k];
            }
            lastBytes[k] = Arrays.copyOf(scratch, n);
            lastText[k] = new String(scratch, 0, n, StandardCharsets.UTF_8);
            return lastText[k];
        }

        private ZoneId zone(String id) {
            if (id == null) {
                return null;
            }
            if (!id.equals(zoneText)) {
                zone = ZoneId.of(id);
                zoneText = id;
            }
            return zone;
        }
    }

    private interface Store {
        void set(Cached c);
    }

    private static byte[] store(Object key, byte[] bytes, Store store) {
        if (key != null) {
            store.set(new Cached(key, bytes));
        }
        return bytes;
    }

    private static final byte[] EMPTY = new byte[0];

    static byte[] utf8(String s) {
        return s == null ? null : s.isEmpty() ? EMPTY : s.getBytes(StandardCharsets.UTF_8);
    }

    static void put(ByteBuffer b, byte[] s) {
        if (s == null) {
            b.putInt(-1);
        } else {
            b.putInt(s.length).put(s);
        }
    }

    static String str(ByteBuffer b) {
        int n = b.getInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("string length " + n);
        }
        byte[] a = new byte[n];
        b.get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    private static int paramSize(Object p) {
        if (p == null) {
            return 0;
        }
        if (p instanceof String s) {
            return 4 + s.length() * 3;
        }
        if (p instanceof BigInteger i) {
            return 4 + i.toString().length();
        }
        return 16; // the widest primitive (UUID: two longs)
    }

    static void putParam(ByteBuffer b, Object p) {
        if (p == null) {
            b.put((byte) 0);
        } else if (p instanceof String s) {
            b.put((byte) 1);
            put(b, utf8(s));
        } else if (p instanceof Integer i) {
            b.put((byte) 2).putInt(i);
        } else if (p instanceof Long l) {
            b.put((byte) 3).putLong(l);
        } else if (p instanceof Short s) {
            b.put((byte) 4).putShort(s);
        } else if (p instanceof Byte x) {
            b.put((byte) 5).put(x);
        } else if (p instanceof Boolean x) {
            b.put((byte) 6).put((byte) (x ? 1 : 0));
        } else if (p instanceof Character c) {
            b.put((byte) 7).putChar(c);
        } else if (p instanceof Double d) {
            b.put((byte) 8).putLong(Double.doubleToRawLongBits(d));
        } else if (p instanceof Float f) {
            b.put((byte) 9).putInt(Float.floatToRawIntBits(f));
        } else if (p instanceof BigInteger i) {
            b.put((byte) 10);
            put(b, utf8(i.toString()));
        } else if (p instanceof UUID u) {
            b.put((byte) 11).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        } else {
            throw new IllegalArgumentException("not an immutable JDK value: " + p.getClass().getName());
        }
    }

    /** A deferred message's parameters (count, then each tagged), read from {@code b}'s position (little-endian). */
    static Object[] params(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("parameter count " + n);
        }
        Object[] params = new Object[n];
        for (int i = 0; i < n; i++) {
            params[i] = param(b);
        }
        return params;
    }

    private static Object param(ByteBuffer b) {
        int tag = b.get();
        return switch (tag) {
            case 0 -> null;
            case 1 -> str(b);
            case 2 -> b.getInt();
            case 3 -> b.getLong();
            case 4 -> b.getShort();
            case 5 -> b.get();
            case 6 -> b.get() != 0;
            case 7 -> b.getChar();
            case 8 -> Double.longBitsToDouble(b.getLong());
            case 9 -> Float.intBitsToFloat(b.getInt());
            case 10 -> new BigInteger(str(b));
            case 11 -> new UUID(b.getLong(), b.getLong());
            default -> throw new IllegalArgumentException("parameter tag " + tag + " at " + b.position());
        };
    }
}
