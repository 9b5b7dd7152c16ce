package dev.spool.agent.jul;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Locale;
import java.util.UUID;

/**
 * A captured {@code SimpleFormatter} record as a journal frame's payload ({@link JulJournal}):
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
final class JulJournalCodec {
    private record Cached(Object key, byte[] bytes) {
    }

    /** A level's localized name depends on the default locale too ({@code Level.getLocalizedName()}). */
    private record LevelName(Object level, Locale locale, byte[] bytes) {
    }

    private volatile LevelName level = new LevelName(null, null, null);
    private volatile Cached zone = new Cached(new Object(), null);
    private volatile Cached locale = new Cached(new Object(), null);
    private volatile Cached logger = new Cached(new Object(), null);

    /** The payload of {@code r}: the buffer's array up to its position. */
    ByteBuffer encode(JulCapture r) {
        byte[] source = utf8(r.source);
        Cached c = logger;
        byte[] lg = c.key == r.loggerName ? c.bytes : store(r.loggerName, utf8(r.loggerName), x -> logger = x);
        LevelName ln = level;
        Locale now = Locale.getDefault();
        byte[] lv;
        if (r.level != null && ln.level == r.level && ln.locale == now) {
            lv = ln.bytes;
        } else {
            lv = utf8(r.levelName());
            level = new LevelName(r.level, now, lv);
        }
        Object z = r.zoneAtCall();
        c = zone;
        byte[] zn = z == null ? null : c.key == z ? c.bytes : store(z, utf8(JulDefaultZone.zoneId(z).getId()), x -> zone = x);
        c = locale;
        byte[] lc = c.key == r.locale ? c.bytes : store(r.locale, utf8(r.locale.toLanguageTag()), x -> locale = x);
        byte[] thrown = utf8(r.thrownText);
        String text = r.capturedMessage();
        Object[] params = r.capturedParameters();
        byte[] message = params == null ? utf8(text) : utf8(r.capturedRawMessage());
        int size = 8 + 4 + len(source) + len(lg) + len(lv) + len(zn) + len(lc) + len(thrown) + 1 + len(message);
        if (params != null) {
            size += 4;
            for (Object p : params) {
                size += 1 + paramSize(p);
            }
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(r.epochSecond).putInt(r.nano);
        put(b, source);
        put(b, lg);
        put(b, lv);
        put(b, zn);
        put(b, lc);
        put(b, thrown);
        b.put((byte) (params == null ? 0 : 1));
        put(b, message);
        if (params != null) {
            b.putInt(params.length);
            for (Object p : params) {
                putParam(b, p);
            }
        }
        return b;
    }

    /** The capture a payload holds (recovery): formatted by {@link CompiledSimpleFormatter} as the writer would. */
    static JulCapture decode(ByteBuffer b) {
        b.order(ByteOrder.LITTLE_ENDIAN);
        long epochSecond = b.getLong();
        int nano = b.getInt();
        String source = str(b);
        String loggerName = str(b);
        String levelName = str(b);
        String zoneId = str(b);
        String locale = str(b);
        String thrown = str(b);
        int kind = b.get();
        String message = str(b);
        Object[] params = null;
        if (kind == 1) {
            int n = b.getInt();
            if (n < 0 || n > b.remaining()) {
                throw new IllegalArgumentException("parameter count " + n);
            }
            params = new Object[n];
            for (int i = 0; i < n; i++) {
                params[i] = param(b);
            }
        } else if (kind != 0) {
            throw new IllegalArgumentException("message kind " + kind);
        }
        return JulCapture.restored(epochSecond, nano, source, loggerName, levelName,
                zoneId == null ? null : ZoneId.of(zoneId), Locale.forLanguageTag(locale), thrown,
                kind == 0 ? message : null, kind == 1 ? message : null, params);
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

    private static byte[] utf8(String s) {
        return s == null ? null : s.isEmpty() ? EMPTY : s.getBytes(StandardCharsets.UTF_8);
    }

    private static int len(byte[] s) {
        return 4 + (s == null ? 0 : s.length);
    }

    private static void put(ByteBuffer b, byte[] s) {
        if (s == null) {
            b.putInt(-1);
        } else {
            b.putInt(s.length).put(s);
        }
    }

    private static String str(ByteBuffer b) {
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

    private static void putParam(ByteBuffer b, Object p) {
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
