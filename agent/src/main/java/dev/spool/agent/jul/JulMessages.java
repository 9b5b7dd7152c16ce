package dev.spool.agent.jul;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.UUID;

/**
 * {@code java.util.logging.Formatter.formatMessage} and {@code SimpleFormatter}'s thrown text,
 * with the JDK's exact semantics, callable without a {@code Formatter} and on another thread than
 * the record's caller. Stateless, thread-safe.
 */
final class JulMessages {

    private JulMessages() {}

    /**
     * What {@code Formatter.formatMessage(record)} returns for a record with this message, bundle
     * and parameters: the bundle's string for the message key if any; then
     * {@code MessageFormat.format} only when there are parameters and the text has a
     * {@code '{'} followed by a digit (the JDK's cheap test); the text itself when formatting throws.
     */
    static String formatMessage(String message, ResourceBundle catalog, Object[] parameters) {
        return formatMessage(message, catalog, parameters, null, Locale.getDefault(Locale.Category.FORMAT));
    }

    /**
     * As {@link #formatMessage(String, ResourceBundle, Object[])}, with {@code MessageFormat.format}
     * done by {@code formats} (the same text; one log's drainer only) when it is not null, in
     * {@code locale} (the default {@code FORMAT} locale at the record's call).
     */
    static String formatMessage(String message, ResourceBundle catalog, Object[] parameters, JulMessageFormats formats,
                                Locale locale) {
        String format = message;
        if (catalog != null) {
            try {
                format = catalog.getString(format);
            } catch (MissingResourceException ex) {
                // the JDK drops through: the record's message is the format
            }
        }
        try {
            if (parameters == null || parameters.length == 0) {
                return format;
            }
            if (hasArgument(format)) {
                return formats == null ? new MessageFormat(format, locale).format(parameters)
                        : formats.format(format, parameters, locale);
            }
            return format;
        } catch (Exception ex) {
            return format; // as the JDK: formatting failed, the (localized) format string
        }
    }

    /**
     * Appends what {@link #formatMessage(String, ResourceBundle, Object[], JulMessageFormats, Locale)} returns
     * ("null" for null), formatting straight into {@code sb}: when formatting throws, what it had
     * appended is cut and the (localized) format string appended, as the JDK returns it then.
     */
    static void appendMessage(StringBuilder sb, String message, ResourceBundle catalog, Object[] parameters,
                              JulMessageFormats formats, Locale locale) {
        String format = message;
        if (catalog != null) {
            try {
                format = catalog.getString(format);
            } catch (MissingResourceException ex) {
                // the JDK drops through: the record's message is the format
            }
        }
        if (parameters != null && parameters.length > 0 && hasArgument(format)) {
            int mark = sb.length();
            try {
                formats.appendTo(sb, format, parameters, locale);
                return;
            } catch (Exception ex) {
                sb.setLength(mark);
            }
        }
        sb.append(format);
    }

    /** The JDK's cheap test for {@code MessageFormat}: a {@code '{'} followed by a digit. */
    private static boolean hasArgument(String format) {
        int index = -1;
        int fence = format.length() - 1;
        while ((index = format.indexOf('{', index + 1)) > -1) {
            if (index >= fence) {
                return false;
            }
            char digit = format.charAt(index + 1);
            if (digit >= '0' && digit <= '9') {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the record's message text will need {@code MessageFormat} with these parameters,
     * decided without a bundle lookup: false only when the JDK would certainly return the text
     * as it is (no parameters).
     */
    static boolean mayFormat(Object[] parameters) {
        return parameters != null && parameters.length > 0;
    }

    /**
     * Whether every parameter is of a final JDK class whose instances never change (so
     * {@code MessageFormat} may run later, on the writer thread, with the same result).
     */
    static boolean allImmutable(Object[] parameters) {
        for (Object p : parameters) {
            if (p == null) {
                continue;
            }
            Class<?> c = p.getClass();
            if (c != String.class && c != Integer.class && c != Long.class && c != Short.class && c != Byte.class
                    && c != Boolean.class && c != Character.class && c != Double.class && c != Float.class
                    && c != BigInteger.class && c != UUID.class) {
                return false;
            }
        }
        return true;
    }

    /** {@code SimpleFormatter}'s sixth argument: a line separator and the stack trace, or "". */
    static String thrownText(Throwable thrown) {
        if (thrown == null) {
            return "";
        }
        StringWriter sw = new StringWriter();
        PrintWriter pw = new PrintWriter(sw);
        pw.println();
        thrown.printStackTrace(pw);
        pw.close();
        return sw.toString();
    }
}
