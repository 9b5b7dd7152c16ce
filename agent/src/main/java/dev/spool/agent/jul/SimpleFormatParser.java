package dev.spool.agent.jul;

import dev.spool.agent.jul.CompiledSimpleFormatter.Segment;
import java.util.List;

/**
 * Parses a {@code java.util.Formatter} format string, as {@code SimpleFormatter} uses it (six
 * arguments: date, source, logger, level, message, thrown), into {@link Segment}s. Follows
 * {@code java.util.Formatter}'s syntax {@code %[index$][flags][width][.precision][t|T]conversion},
 * ordinary indexes (the next argument), explicit ones and the relative {@code <} flag; every
 * argument index is resolved here, so each specifier the JDK still formats on its own is passed
 * its one argument. Only formats the JDK accepted ({@code String.format} with the six arguments
 * did not throw) are passed in; anything unexpected throws {@code IllegalArgumentException}.
 */
final class SimpleFormatParser {

    private static final String FLAGS = "-#+ 0,(<";

    private SimpleFormatParser() {}

    static List<Segment> parse(String format) {
        List<Segment> out = CompiledSimpleFormatter.newList();
        StringBuilder literal = new StringBuilder();
        int ordinary = 0; // the last ordinary index used
        int last = 0;     // the last argument used (for '<')
        int i = 0;
        int n = format.length();
        while (i < n) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                i++;
                continue;
            }
            int start = i++;
            // (\d+\$)?
            int index = -1;
            int j = i;
            while (j < n && isDigit(format.charAt(j))) {
                j++;
            }
            if (j > i && j < n && format.charAt(j) == '$') {
                index = Integer.parseInt(format.substring(i, j));
                i = j + 1;
            }
            int flagsStart = i;
            while (i < n && FLAGS.indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String flags = format.substring(flagsStart, i);
            int widthStart = i;
            while (i < n && isDigit(format.charAt(i))) {
                i++;
            }
            int width = i > widthStart ? Integer.parseInt(format.substring(widthStart, i)) : -1;
            int precision = -1;
            String precisionText = "";
            if (i < n && format.charAt(i) == '.') {
                int p = ++i;
                while (i < n && isDigit(format.charAt(i))) {
                    i++;
                }
                if (i == p) {
                    throw new IllegalArgumentException("precision without digits at " + start);
                }
                precision = Integer.parseInt(format.substring(p, i));
                precisionText = format.substring(p - 1, i);
            }
            boolean dateTime = false;
            boolean upper = false;
            if (i < n && (format.charAt(i) == 't' || format.charAt(i) == 'T')) {
                dateTime = true;
                upper = format.charAt(i) == 'T';
                i++;
            }
            if (i >= n) {
                throw new IllegalArgumentException("a specifier without conversion at " + start);
            }
            char conversion = format.charAt(i++);
            String widthText = width == -1 ? "" : Integer.toString(width);
            if (!dateTime && (conversion == 'n' || conversion == '%')) {
                if (conversion == 'n' && flags.isEmpty() && width == -1 && precision == -1) {
                    literal.append(System.lineSeparator());
                } else if (conversion == '%' && flags.isEmpty() && width == -1 && precision == -1) {
                    literal.append('%');
                } else {
                    flush(literal, out);
                    out.add(Segment.jdk(0, "%" + flags + widthText + precisionText + conversion));
                }
                continue;
            }
            int arg;
            if (flags.indexOf('<') >= 0) {
                arg = last;
            } else if (index != -1) {
                arg = index;
            } else {
                arg = ++ordinary;
            }
            if (arg < 1 || arg > 6) {
                throw new IllegalArgumentException("argument " + arg + " at " + start);
            }
            last = arg;
            flush(literal, out);
            String plainFlags = flags.replace("<", "");
            String spec = "%" + plainFlags + widthText + precisionText + (dateTime ? (upper ? "T" : "t") : "") + conversion;
            out.add(segment(arg, plainFlags, width, precision, dateTime, conversion, spec));
        }
        flush(literal, out);
        return out;
    }

    private static Segment segment(int arg, String flags, int width, int precision, boolean dateTime, char conversion,
                                   String spec) {
        if (arg == 1 && dateTime) {
            if ((conversion == 'L' || conversion == 'N') && flags.isEmpty() && width == -1 && precision == -1) {
                return Segment.subSecond(conversion == 'N');
            }
            if (conversion == 'Q' && spec.equals("%tQ")) {
                return Segment.epochMillis(spec); // its digits in the locale's zero digit, per record
            }
            if (conversion != 'L' && conversion != 'N' && conversion != 'Q') {
                return Segment.secondDate(spec); // the JDK's text, cached per second
            }
            return Segment.jdk(arg, spec);
        }
        if (arg >= 2 && !dateTime && conversion == 's' && (flags.isEmpty() || flags.equals("-"))) {
            return Segment.string(arg, width, precision, flags.equals("-"));
        }
        return Segment.jdk(arg, spec);
    }

    private static void flush(StringBuilder literal, List<Segment> out) {
        if (literal.length() > 0) {
            out.add(Segment.literal(literal.toString()));
            literal.setLength(0);
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
