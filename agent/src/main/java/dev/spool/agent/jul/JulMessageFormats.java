package dev.spool.agent.jul;

import java.text.AttributedCharacterIterator;
import java.text.CharacterIterator;
import java.text.Format;
import java.text.MessageFormat;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code MessageFormat.format(pattern, arguments)} for the writer thread, with the JDK's result
 * and without its per-call cost: the JDK parses the pattern again for every record and makes a
 * new {@code NumberFormat} for every number argument (JFR on issue 13's workload: three quarters
 * of the writer's time).
 *
 * <p>A pattern is parsed once per locale, by the JDK itself: {@link MessageFormat} parses it and
 * formats one-character stand-ins, and {@code formatToCharacterIterator} says which characters
 * are arguments ({@link MessageFormat.Field#ARGUMENT}) — so quoting, braces and errors follow the
 * JDK exactly. A pattern whose arguments all have no format type ({@code {0}}, not
 * {@code {0,number,#}}) is kept as literal text and argument indexes and formatted as the JDK's
 * {@code subformat} does: {@code null} → "null"; a {@code Number} with {@code NumberFormat.getInstance(locale)}
 * (one instance per locale, kept); a {@code Date} with the JDK's short date-time format; a
 * {@code String} itself; anything else its {@code toString()} ("null" if that is null); an
 * index past the arguments as {@code {n}}. Any other pattern is formatted by the JDK per call.
 *
 * <p>Not thread-safe: one per log, used by its one drainer at a time (the drain lock orders the
 * uses). The locale is the caller's to read per record ({@code Locale.getDefault(FORMAT)}, as
 * {@code MessageFormat.format} does); a change of locale drops the cache.
 */
final class JulMessageFormats {

    /** Patterns kept at most (a log whose messages are built by concatenation must not grow it without end). */
    static final int MAX_PATTERNS = 512;
    private static final Compiled BY_JDK = new Compiled(null, null);

    private final Map<String, Compiled> patterns = new HashMap<>();
    private Locale locale;
    private NumberFormat numbers;
    /** The locale's integers without {@code DecimalFormat} (null until asked; {@link #NO_INTEGERS}: the JDK's, unproven). */
    private Object integers;
    private static final Object NO_INTEGERS = new Object();

    /** {@code MessageFormat.format(pattern, arguments)} in {@code locale}; throws where the JDK's throws. */
    String format(String pattern, Object[] arguments, Locale locale) {
        Compiled c = compiled(pattern, locale);
        if (c == BY_JDK) {
            return new MessageFormat(pattern, locale).format(arguments);
        }
        StringBuilder sb = new StringBuilder(pattern.length() + 16 * c.arguments.length);
        append(sb, c, arguments, locale);
        return sb.toString();
    }

    /** The pattern's parsed form in {@code locale} (parsed now if new; a pattern the JDK refuses throws). */
    private Compiled compiled(String pattern, Locale locale) {
        if (locale != this.locale && !locale.equals(this.locale)) {
            patterns.clear();
            this.locale = locale;
            numbers = null;
            integers = null;
        }
        Compiled c = patterns.get(pattern);
        if (c == null) {
            c = compile(pattern, locale); // a pattern the JDK refuses throws here, as MessageFormat.format does
            if (patterns.size() >= MAX_PATTERNS) {
                patterns.clear();
            }
            patterns.put(pattern, c);
        }
        return c;
    }

    /**
     * Appends {@code MessageFormat.format(pattern, arguments)} in {@code locale} to {@code sb}; throws
     * where the JDK's throws (then {@code sb} may hold part of the text: the caller cuts it back).
     */
    void appendTo(StringBuilder sb, String pattern, Object[] arguments, Locale locale) {
        Compiled c = compiled(pattern, locale);
        if (c == BY_JDK) {
            sb.append(new MessageFormat(pattern, locale).format(arguments));
        } else {
            append(sb, c, arguments, locale);
        }
    }

    private void append(StringBuilder sb, Compiled c, Object[] arguments, Locale locale) {
        for (int i = 0; i < c.arguments.length; i++) {
            sb.append(c.literals[i]);
            int a = c.arguments[i];
            if (arguments == null || a >= arguments.length) {
                sb.append('{').append(a).append('}');
            } else {
                appendArgument(sb, arguments[a], locale);
            }
        }
        sb.append(c.literals[c.arguments.length]);
    }

    private void appendArgument(StringBuilder sb, Object o, Locale locale) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof Number) {
            Class<?> c = o.getClass();
            if ((c == Integer.class || c == Long.class || c == Short.class || c == Byte.class)
                    && appendInteger(sb, ((Number) o).longValue(), locale)) {
                return;
            }
            NumberFormat nf = numbers;
            if (nf == null) {
                nf = NumberFormat.getInstance(locale);
                numbers = nf;
            }
            sb.append(nf.format(o));
        } else if (o instanceof java.util.Date) {
            sb.append(java.text.DateFormat.getDateTimeInstance(java.text.DateFormat.SHORT, java.text.DateFormat.SHORT, locale)
                    .format(o));
        } else if (o instanceof String) {
            sb.append((String) o);
        } else {
            String s = o.toString();
            sb.append(s == null ? "null" : s);
        }
    }

    /** The JDK's {@code NumberFormat.getInstance(locale).format(value)} by {@link JulIntegerText}, when proven equal for the locale. */
    private boolean appendInteger(StringBuilder sb, long value, Locale locale) {
        Object t = integers;
        if (t == null) {
            JulIntegerText text = JulIntegerText.of(locale);
            t = text != null ? text : NO_INTEGERS;
            integers = t;
        }
        return t != NO_INTEGERS && ((JulIntegerText) t).append(sb, value);
    }

    /** The pattern as the JDK parses it, or {@link #BY_JDK} when an argument has a format type. */
    static Compiled compile(String pattern, Locale locale) {
        MessageFormat mf = new MessageFormat(pattern, locale);
        if (hasDigitRun(pattern, 5)) {
            return BY_JDK; // an index like {99999}: the stand-ins below would need that many slots
        }
        for (Format f : mf.getFormats()) {
            if (f != null) {
                return BY_JDK;
            }
        }
        Object[] standIns = new Object[mf.getFormatsByArgumentIndex().length];
        Arrays.fill(standIns, "x"); // one character per argument: each argument is one attributed character
        AttributedCharacterIterator it = mf.formatToCharacterIterator(standIns);
        List<String> literals = new ArrayList<>();
        List<Integer> arguments = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (char ch = it.first(); ch != CharacterIterator.DONE; ch = it.next()) {
            Object a = it.getAttribute(MessageFormat.Field.ARGUMENT);
            if (a == null) {
                literal.append(ch);
            } else {
                literals.add(literal.toString());
                literal.setLength(0);
                arguments.add((Integer) a);
            }
        }
        literals.add(literal.toString());
        return new Compiled(literals.toArray(new String[0]), arguments.stream().mapToInt(Integer::intValue).toArray());
    }

    private static boolean hasDigitRun(String s, int length) {
        int run = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            run = c >= '0' && c <= '9' ? run + 1 : 0;
            if (run >= length) {
                return true;
            }
        }
        return false;
    }

    /** Literal text around argument indexes: {@code literals[i]} comes before {@code arguments[i]}, one more after the last. */
    record Compiled(String[] literals, int[] arguments) { }
}
