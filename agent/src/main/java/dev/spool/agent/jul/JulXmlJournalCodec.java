package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.TimeZone;

/**
 * A captured {@code XMLFormatter} record ({@link JulXmlCapture}) as a journal frame's payload
 * ({@link MappedLogJournal}, magic {@code SPOOLJXM}): everything {@link JulXmlFormat} reads, so recovery
 * writes the record's XML without the host. Little-endian:
 * <pre>
 * epochSecond (long) nano (int) sequence (long) threadId (long) hasMessage (byte)
 * logger level class method zone locale key catalog exception (strings)
 * parameter texts: count (int, -1 for none) then each a string
 * kind (byte) then as {@link JulJournalCodec}: 0 message (string); 1 pattern (string) and its typed parameters
 * string: length (int, -1 for null) + UTF-8
 * </pre>
 * The zone is the default {@code TimeZone}'s id at the call (the old local date only; null with
 * {@code useInstant}). A zone whose id does not name the same rules ({@code TimeZone.getTimeZone(id)}: a
 * {@code SimpleTimeZone} of the application's making) is journaled as its offset at the record's instant,
 * {@link #OFFSET_PREFIX} and milliseconds: the old date's fields are the instant moved by that offset,
 * whatever the zone's rules, so recovery's fixed zone of that offset writes the same date. Only a JDK zone
 * class's offset is asked (no host code on the caller's thread); a zone of the host's own class is not
 * journaled: {@link #encode} throws and the record goes without the journal, counted. Encoding runs on the
 * caller's thread and reads only the capture. Thread-safe (the caches are immutable holders in volatile fields).
 */
final class JulXmlJournalCodec implements JulJournalEncoder {
    private record Cached(Object key, byte[] bytes) {
    }

    private static final Cached NONE = new Cached(new Object(), null);
    /** A journaled zone text that is no zone id: a fixed offset in milliseconds follows. */
    static final String OFFSET_PREFIX = "spool-offset-ms:";
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1024]);

    private volatile Cached logger = NONE;
    private volatile Cached level = NONE;
    private volatile Cached locale = NONE;
    private volatile Cached zone = NONE;

    @Override
    public ByteBuffer encode(JulCapture captured) {
        JulXmlCapture r = (JulXmlCapture) captured;
        Cached c = logger;
        if (c.key != r.loggerName) {
            logger = c = new Cached(r.loggerName, JulJournalCodec.utf8(r.loggerName));
        }
        byte[] lg = c.bytes;
        c = level;
        if (c.key != r.level) {
            level = c = new Cached(r.level, JulJournalCodec.utf8(r.levelText()));
        }
        byte[] lv = c.bytes;
        c = locale;
        if (c.key != r.locale) {
            locale = c = new Cached(r.locale, JulJournalCodec.utf8(r.locale.toLanguageTag()));
        }
        byte[] lc = c.bytes;
        byte[] zn = null;
        if (r.timeZone != null) {
            c = zone;
            if (c.key != r.timeZone) {
                String id = namedId(r.timeZone);
                zone = c = new Cached(r.timeZone, id == null ? null : JulJournalCodec.utf8(id));
            }
            zn = c.bytes != null ? c.bytes : JulJournalCodec.utf8(OFFSET_PREFIX + offsetAt(r));
        }
        byte[] b = SCRATCH.get();
        while (true) {
            ByteBuffer out = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            try {
                write(out, r, lg, lv, zn, lc);
                return out;
            } catch (BufferOverflowException e) {
                b = new byte[b.length * 2];
                if (b.length <= 64 << 10) {
                    SCRATCH.set(b); // a long record (an exception's frames): a larger scratch kept (a huge one is not)
                }
            }
        }
    }

    /** The zone's id when it names the same rules, else null (a custom zone: journaled by its offset). */
    private static String namedId(TimeZone tz) {
        String id = tz.getID();
        TimeZone named = TimeZone.getTimeZone(id);
        return named.getID().equals(id) && named.hasSameRules(tz) ? id : null;
    }

    /**
     * A custom zone's offset at the record's instant (the millisecond the old date formats), read from a copy: a
     * JDK zone class only ({@code SimpleTimeZone}, {@code ZoneInfo}); the host's own class is not asked.
     */
    private static int offsetAt(JulXmlCapture r) {
        if (r.timeZone.getClass().getClassLoader() != null) {
            throw new IllegalArgumentException("the default time zone " + r.timeZone.getID() + " is of the application's"
                    + " class " + r.timeZone.getClass().getName());
        }
        return JulDefaultZone.copy(r.timeZone).getOffset(r.epochSecond * 1000 + r.nano / 1_000_000);
    }

    private static void write(ByteBuffer out, JulXmlCapture r, byte[] lg, byte[] lv, byte[] zn, byte[] lc) {
        out.putLong(r.epochSecond).putInt(r.nano).putLong(r.sequence).putLong(r.threadId);
        out.put((byte) (r.hasMessage ? 1 : 0));
        JulJournalCodec.put(out, lg);
        JulJournalCodec.put(out, lv);
        putString(out, r.sourceClass);
        putString(out, r.sourceMethod);
        JulJournalCodec.put(out, zn);
        JulJournalCodec.put(out, lc);
        putString(out, r.key);
        putString(out, r.catalog);
        putString(out, r.exception);
        String[] texts = r.parameterTexts;
        out.putInt(texts == null ? -1 : texts.length);
        if (texts != null) {
            for (String t : texts) {
                putString(out, t);
            }
        }
        Object[] params = r.capturedParameters();
        out.put((byte) (params == null ? 0 : 1));
        putString(out, params == null ? r.capturedMessage() : r.capturedRawMessage());
        if (params != null) {
            out.putInt(params.length);
            for (Object p : params) {
                JulJournalCodec.putParam(out, p);
            }
        }
    }

    /** A string: an ASCII one copied char by char (no array of its own), else the JDK's UTF-8. */
    private static void putString(ByteBuffer out, String s) {
        if (s == null) {
            out.putInt(-1);
            return;
        }
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                JulJournalCodec.put(out, s.getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        if (out.remaining() < 4 + n) {
            throw new BufferOverflowException();
        }
        out.putInt(n);
        for (int i = 0; i < n; i++) {
            out.put((byte) s.charAt(i));
        }
    }

    /** The payloads {@link #encode} made, read back (recovery); one thread. */
    static final class Decoder {
        private String zoneText;
        private TimeZone zone;
        private final JulLastLocale locales = new JulLastLocale();

        JulXmlCapture decode(ByteBuffer b) {
            b.order(ByteOrder.LITTLE_ENDIAN);
            long epochSecond = b.getLong();
            int nano = b.getInt();
            long sequence = b.getLong();
            long threadId = b.getLong();
            int flags = b.get();
            if ((flags & ~1) != 0 || nano < 0 || nano > 999_999_999) {
                throw new IllegalArgumentException("not an XML record's frame");
            }
            String loggerName = JulJournalCodec.str(b);
            String level = JulJournalCodec.str(b);
            String sourceClass = JulJournalCodec.str(b);
            String sourceMethod = JulJournalCodec.str(b);
            String zoneId = JulJournalCodec.str(b);
            String localeTag = JulJournalCodec.str(b);
            String key = JulJournalCodec.str(b);
            String catalog = JulJournalCodec.str(b);
            String exception = JulJournalCodec.str(b);
            int n = b.getInt();
            if (n < -1 || n > b.remaining()) {
                throw new IllegalArgumentException("parameter text count " + n);
            }
            String[] texts = n < 0 ? null : new String[n];
            for (int i = 0; i < n; i++) {
                texts[i] = JulJournalCodec.str(b);
            }
            int kind = b.get();
            String message = JulJournalCodec.str(b);
            Object[] params = null;
            if (kind == 1) {
                params = JulJournalCodec.params(b);
            } else if (kind != 0) {
                throw new IllegalArgumentException("message kind " + kind);
            }
            if (level == null || localeTag == null) {
                throw new IllegalArgumentException("a record without its level or locale");
            }
            return new JulXmlCapture(epochSecond, nano, loggerName, level, locales.of(localeTag), kind == 0 ? message : null,
                    kind == 1 ? message : null, params, sequence, threadId, sourceClass, sourceMethod, (flags & 1) != 0,
                    key, catalog, texts, exception, zone(zoneId));
        }

        private TimeZone zone(String id) {
            if (id == null) {
                return null;
            }
            if (!id.equals(zoneText)) {
                zone = id.startsWith(OFFSET_PREFIX)
                        ? new java.util.SimpleTimeZone(Integer.parseInt(id.substring(OFFSET_PREFIX.length())), id)
                        : TimeZone.getTimeZone(id);
                zoneText = id;
            }
            return zone;
        }
    }
}
