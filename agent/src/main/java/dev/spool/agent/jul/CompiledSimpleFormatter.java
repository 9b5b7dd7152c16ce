package dev.spool.agent.jul;

import java.text.DecimalFormatSymbols;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.LogRecord;

/**
 * The JDK's {@code SimpleFormatter} with its format string parsed once into a plan that appends
 * to a {@code StringBuilder}: no {@code String.format} per record for the common specifiers, and
 * the same characters as {@code String.format(format, zdt, source, logger, level, message, thrown)}.
 *
 * <ul>
 *   <li>literal text, {@code %n} and {@code %%}: appended;
 *   <li>{@code %s} of arguments 2–6 with {@code -}, a width and a precision: appended and padded
 *       as {@code java.util.Formatter} does;
 *   <li>date/time conversions of argument 1 ({@code %1$t…}, {@code %1$T…}, any flags and width)
 *       whose text changes at most once a second: formatted by the JDK once per second (and per
 *       time zone and locale) and cached;
 *   <li>{@code %1$tL} and {@code %1$tN} without flags or width: the record's milliseconds or
 *       nanoseconds, in the locale's digits; {@code %1$tQ} the milliseconds since the epoch, likewise;
 *   <li>every other specifier (e.g. {@code %4$S}, {@code %1$TQ}, {@code %1$s}): the JDK formats
 *       that one specifier with its one argument, each record (exact by construction, slower).
 * </ul>
 * Time zone ({@code ZoneId.systemDefault()}) and locale ({@code Locale.getDefault(FORMAT)}) are the
 * record's, read at its call ({@link JulCapture}), as the JDK's formatter reads them then.
 *
 * <p>Thread-safe: the plan is immutable and the per-second cache an immutable holder in a
 * volatile field.
 */
final class CompiledSimpleFormatter implements JulFormat {

    /** The JDK's default {@code SimpleFormatter} format. */
    static final String DEFAULT_FORMAT = "%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s%n%4$s: %5$s%6$s%n";
    static final String FORMAT_PROPERTY = "java.util.logging.SimpleFormatter.format";

    static final int LITERAL = 0;
    static final int STRING = 1;      // %s of argument 2..6: '-' flag, width, precision
    static final int SECOND_DATE = 2; // argument 1, t/T conversion, text constant within a second
    static final int MILLIS = 3;      // %1$tL
    static final int NANOS = 4;       // %1$tN
    static final int JDK = 5;         // one specifier, formatted by the JDK per record
    static final int EPOCH_MILLIS = 6; // %1$tQ

    private final String format;
    private final int[] kinds;
    private final int[] args;      // 1..6, or 0 for no argument
    private final String[] texts;  // literal text, or the specifier without index for SECOND_DATE/JDK
    private final int[] widths;
    private final int[] precisions;
    private final boolean[] leftJustify;
    private final int secondDates; // how many SECOND_DATE segments (the cache's size)
    private final int[] secondIndex;
    private final boolean[] uses = new boolean[7];
    private volatile SecondCache cache;
    /** The last text's length: the next builder's capacity (a race only sizes a builder wrongly). */
    private int lastLength = 128;

    private CompiledSimpleFormatter(String format, List<Segment> segments) {
        this.format = format;
        int n = segments.size();
        kinds = new int[n];
        args = new int[n];
        texts = new String[n];
        widths = new int[n];
        precisions = new int[n];
        leftJustify = new boolean[n];
        secondIndex = new int[n];
        int seconds = 0;
        for (int i = 0; i < n; i++) {
            Segment s = segments.get(i);
            kinds[i] = s.kind;
            args[i] = s.arg;
            texts[i] = s.text;
            widths[i] = s.width;
            precisions[i] = s.precision;
            leftJustify[i] = s.left;
            uses[s.arg] = true;
            if (s.kind == SECOND_DATE) {
                secondIndex[i] = seconds++;
            }
        }
        secondDates = seconds;
    }

    /**
     * The format string the JDK's {@code SimpleFormatter} constructor resolves now: the system
     * property, else the logging configuration's, validated as the JDK validates it (the default
     * format when absent or invalid).
     *
     * @param configured the logging configuration's value ({@code LogManager.getProperty}), or null
     */
    static String resolveFormat(String configured) {
        String f = System.getProperty(FORMAT_PROPERTY);
        if (f == null) {
            f = configured;
        }
        if (f == null) {
            return DEFAULT_FORMAT;
        }
        try {
            String.format(f, ZonedDateTime.now(), "", "", "", "", "");
            return f;
        } catch (IllegalArgumentException e) {
            return DEFAULT_FORMAT;
        }
    }

    /** Compiles a format the JDK accepts (see {@link #resolveFormat}); never null for such a format. */
    static CompiledSimpleFormatter compile(String format) {
        return new CompiledSimpleFormatter(format, SimpleFormatParser.parse(format));
    }

    String format() {
        return format;
    }

    /** The plan's segments ({@link JulRecoveryLines} writes a line from them). */
    int segments() {
        return kinds.length;
    }

    /** Segment {@code i}'s kind ({@link #LITERAL}, {@link #STRING}, ...). */
    int kind(int i) {
        return kinds[i];
    }

    /** Segment {@code i}'s argument (1..6, 0 for none). */
    int arg(int i) {
        return args[i];
    }

    /** Segment {@code i}'s literal text (or its specifier). */
    String text(int i) {
        return texts[i];
    }

    /** A {@link #STRING} segment's width (-1: none), precision (-1: none) and {@code -} flag. */
    int width(int i) {
        return widths[i];
    }

    int precision(int i) {
        return precisions[i];
    }

    boolean leftJustify(int i) {
        return leftJustify[i];
    }

    /** A {@link #SECOND_DATE} segment's index into {@link SecondCache#parts}. */
    int secondIndex(int i) {
        return secondIndex[i];
    }

    /** Whether the format uses argument {@code n} (1 date, 2 source, 3 logger, 4 level, 5 message, 6 thrown). */
    boolean uses(int n) {
        return uses[n];
    }

    /** The record's text, exactly as the JDK's {@code SimpleFormatter} with this format. */
    @Override
    public JulCapture capture(LogRecord record, JulSources sources) {
        return JulCapture.capture(record, sources, uses(2), uses(5), uses(1));
    }

    @Override
    public boolean readsSource() {
        return uses(2);
    }

    @Override
    public String format(JulCapture r) {
        return format(r, null);
    }

    /** The text; a deferred message formatted straight into it with {@code formats} (null: the JDK's {@code MessageFormat}). */
    @Override
    public String format(JulCapture r, JulMessageFormats formats) {
        StringBuilder sb = new StringBuilder(lastLength + 32);
        formatTo(r, sb, formats);
        lastLength = Math.min(sb.length(), 1 << 16);
        return sb.toString();
    }

    private void formatTo(JulCapture r, StringBuilder sb, JulMessageFormats formats) {
        Locale locale = r.locale;
        ZoneId zone = r.zone();
        SecondCache c = uses[1] ? secondCache(r.epochSecond, r.nano, zone, locale) : null;
        String thrown = uses[6] ? r.thrownText : null; // printed at the call (JulCapture)
        for (int i = 0; i < kinds.length; i++) {
            switch (kinds[i]) {
                case LITERAL -> sb.append(texts[i]);
                case STRING -> {
                    if (args[i] == 5 && formats != null && widths[i] == -1 && precisions[i] == -1) {
                        r.appendMessage(sb, formats); // no String of its own
                    } else {
                        appendString(sb, i, argument(r, args[i], thrown, formats));
                    }
                }
                case SECOND_DATE -> sb.append(c.parts[secondIndex[i]]);
                case MILLIS -> appendDigits(sb, r.nano / 1_000_000, 3, c.zero);
                case NANOS -> appendDigits(sb, r.nano, 9, c.zero);
                case EPOCH_MILLIS -> appendEpochMillis(sb, i, r, zone, locale, c.zero);
                default -> sb.append(jdk(i, r, zone, locale, thrown));
            }
        }
    }

    private Object argument(JulCapture r, int arg, String thrown, JulMessageFormats formats) {
        return switch (arg) {
            case 2 -> r.source;
            case 3 -> r.loggerName;
            case 4 -> r.levelName();
            case 5 -> r.message(formats);
            case 6 -> thrown;
            default -> throw new IllegalStateException("argument " + arg);
        };
    }

    private void appendString(StringBuilder sb, int i, Object value) {
        String s = value == null ? "null" : value.toString();
        int precision = precisions[i];
        if (precision != -1 && precision < s.length()) {
            s = s.substring(0, precision);
        }
        int width = widths[i];
        if (width == -1) {
            sb.append(s);
            return;
        }
        int pad = width - s.length();
        if (leftJustify[i]) {
            sb.append(s);
        }
        for (int k = 0; k < pad; k++) {
            sb.append(' ');
        }
        if (!leftJustify[i]) {
            sb.append(s);
        }
    }

    private static void appendDigits(StringBuilder sb, int value, int digits, char zero) {
        int at = sb.length();
        for (int k = 0; k < digits; k++) {
            sb.append(zero);
        }
        for (int k = at + digits - 1; k >= at && value > 0; k--) {
            sb.setCharAt(k, (char) (zero + value % 10));
            value /= 10;
        }
    }

    /** {@code %1$tQ}: the JDK prints {@code Long.toString(millis)} with each digit in the locale's zero digit. */
    private void appendEpochMillis(StringBuilder sb, int i, JulCapture r, ZoneId zone, Locale locale, char zero) {
        long millis = r.epochSecond * 1000L + r.nano / 1_000_000;
        if (millis < 0) {
            sb.append(jdk(i, r, zone, locale, null)); // before 1970: the JDK's own (odd) text for the sign
            return;
        }
        String digits = Long.toString(millis);
        for (int k = 0; k < digits.length(); k++) {
            sb.append((char) (digits.charAt(k) - '0' + zero));
        }
    }

    private String jdk(int i, JulCapture r, ZoneId zone, Locale locale, String thrown) {
        int arg = args[i];
        if (arg == 0) {
            return String.format(locale, texts[i]);
        }
        Object value = arg == 1 ? ZonedDateTime.ofInstant(Instant.ofEpochSecond(r.epochSecond, r.nano), zone)
                : argument(r, arg, thrown, null);
        return String.format(locale, texts[i], value);
    }

    /**
     * The texts of the second-resolution date specifiers for a record's second, zone and locale (the
     * same object while they stay the same), and the locale's zero digit.
     */
    SecondCache secondCache(long epochSecond, int nano, ZoneId zone, Locale locale) {
        SecondCache c = cache;
        if (c != null && c.epochSecond == epochSecond && c.zone.equals(zone) && c.locale.equals(locale)) {
            return c;
        }
        ZonedDateTime zdt = ZonedDateTime.ofInstant(Instant.ofEpochSecond(epochSecond, nano), zone);
        String[] parts = new String[secondDates];
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == SECOND_DATE) {
                parts[secondIndex[i]] = String.format(locale, texts[i], zdt);
            }
        }
        char zero = DecimalFormatSymbols.getInstance(locale).getZeroDigit();
        c = new SecondCache(epochSecond, zone, locale, parts, zero);
        cache = c;
        return c;
    }

    /** {@code parts[secondIndex(i)]}: segment {@code i}'s text in that second. */
    record SecondCache(long epochSecond, ZoneId zone, Locale locale, String[] parts, char zero) {
    }

    /** One piece of a parsed format (see {@link SimpleFormatParser}). */
    record Segment(int kind, int arg, String text, int width, int precision, boolean left) {
        static Segment literal(String text) {
            return new Segment(LITERAL, 0, text, -1, -1, false);
        }

        static Segment string(int arg, int width, int precision, boolean left) {
            return new Segment(STRING, arg, null, width, precision, left);
        }

        static Segment secondDate(String spec) {
            return new Segment(SECOND_DATE, 1, spec, -1, -1, false);
        }

        static Segment subSecond(boolean nanos) {
            return new Segment(nanos ? NANOS : MILLIS, 1, null, -1, -1, false);
        }

        static Segment epochMillis(String spec) {
            return new Segment(EPOCH_MILLIS, 1, spec, -1, -1, false);
        }

        static Segment jdk(int arg, String spec) {
            return new Segment(JDK, arg, spec, -1, -1, false);
        }
    }

    static List<Segment> newList() {
        return new ArrayList<>();
    }
}
