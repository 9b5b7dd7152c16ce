package dev.spool.agent.jul;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * What {@code SimpleFormatter.format} reads from a {@link LogRecord}, taken on the calling thread
 * ({@link #capture}): everything that depends on that thread or may change after the call
 * returns. Immutable once captured; the writer thread formats it with
 * {@link CompiledSimpleFormatter}.
 *
 * <ul>
 *   <li>the instant, the logger name and the level (a {@code Level} never changes);
 *   <li>the source ({@code "class method"}, else the logger name) only when the format uses it:
 *       reading it makes {@code LogRecord} infer the caller, which must happen on the caller's
 *       thread;
 *   <li>the message: formatted at once with its parameters, unless every parameter is an
 *       immutable JDK value (then the bundle lookup and {@code MessageFormat} run on the writer,
 *       on a private copy of the parameter array, with the same result);
 *   <li>the thrown, by reference (its stack trace is printed by the writer);
 *   <li>the default time zone when the format prints the date ({@code ZoneId.systemDefault()}, as the
 *       JDK's {@code format} reads it) and the default {@code FORMAT} locale (dates, numbers, a
 *       deferred message's {@code MessageFormat}): a {@code TimeZone.setDefault} or
 *       {@code Locale.setDefault} after the call does not reach a queued record.
 * </ul>
 */
class JulCapture {

    /** Whether a level class keeps {@code Level.getLocalizedName()} (so it equals the JDK's getLocalizedLevelName()). */
    private static final ClassValue<Boolean> STANDARD_LEVEL_NAME = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("getLocalizedName").getDeclaringClass() == Level.class;
            } catch (NoSuchMethodException | RuntimeException e) {
                return false;
            }
        }
    };

    final long epochSecond;
    final int nano;
    final String source;
    final String loggerName;
    final Level level;
    final Throwable thrown;
    /** The default time zone at the call, or null when the format prints no date. */
    final ZoneId zone;
    /** {@code Locale.getDefault(Locale.Category.FORMAT)} at the call. */
    final Locale locale;
    /** The host's record: the writer publishes it again through the handler, which gets the captured text. */
    final LogRecord original;
    /** The formatted message, or null while {@link #rawMessage} still has to be formatted. */
    private String message;
    private final String rawMessage;
    private final ResourceBundle bundle;
    private final Object[] parameters;

    /**
     * Takes what every format reads on the calling thread: instant, logger name, level, thrown,
     * the given {@code source}, and the message when {@code needsMessage} (see {@link #capture}).
     * {@code formatsAnyway}: the formatter calls {@code formatMessage} even when it does not print
     * the message ({@code SimpleFormatter}), so a bundle that makes it throw must throw here.
     * {@code needsZone}: the format prints the date in the default time zone.
     */
    JulCapture(LogRecord record, String source, boolean needsMessage, boolean formatsAnyway, boolean needsZone) {
        Instant instant = record.getInstant();
        this.epochSecond = instant.getEpochSecond();
        this.nano = instant.getNano();
        this.source = source;
        this.loggerName = record.getLoggerName();
        this.level = record.getLevel();
        this.thrown = record.getThrown();
        this.original = record;
        this.zone = needsZone ? ZoneId.systemDefault() : null;
        this.locale = Locale.getDefault(Locale.Category.FORMAT);
        String text = null;
        String raw = null;
        ResourceBundle catalog = null;
        Object[] params = null;
        if (formatsAnyway && !needsMessage && record.getResourceBundle() != null) {
            // the JDK's format always calls formatMessage: a bundle can make it throw (a null key, a value
            // that is not a String), and then the record is not written; throwing here keeps that outcome
            JulMessages.formatMessage(record.getMessage(), record.getResourceBundle(), null);
        }
        if (needsMessage) {
            Object[] p = record.getParameters();
            if (!JulMessages.mayFormat(p) && record.getResourceBundle() == null) {
                text = record.getMessage();
            } else if (p != null && record.getMessage() != null && JulMessages.allImmutable(p)) {
                raw = record.getMessage();
                catalog = record.getResourceBundle();
                params = p.clone(); // the caller may reuse its array
            } else {
                text = JulMessages.formatMessage(record.getMessage(), record.getResourceBundle(), p);
            }
        }
        this.message = text;
        this.rawMessage = raw;
        this.bundle = catalog;
        this.parameters = params;
    }

    /**
     * Captures {@code record} on the calling thread for a format that uses the source
     * ({@code needsSource}) and the message ({@code needsMessage}) or not.
     */
    static JulCapture capture(LogRecord record, boolean needsSource, boolean needsMessage) {
        return capture(record, null, needsSource, needsMessage, true);
    }

    /**
     * As {@link #capture(LogRecord, boolean, boolean)}, a source still to infer inferred by {@code sources} (null: the JDK),
     * the default time zone read only when {@code needsZone}.
     */
    static JulCapture capture(LogRecord record, JulSources sources, boolean needsSource, boolean needsMessage, boolean needsZone) {
        requireStandardLevelName(record);
        String source = null;
        if (needsSource) {
            if (sources != null) {
                sources.infer(record); // Spool's walk when the record still needs one (else the getter below infers)
            }
            String cls = record.getSourceClassName(); // infers the caller here, on the caller's thread
            if (cls != null) {
                String method = record.getSourceMethodName();
                source = method != null ? cls + " " + method : cls;
            } else {
                source = record.getLoggerName();
            }
        }
        return new JulCapture(record, source, needsMessage, true, needsZone);
    }

    /**
     * The JDK's {@code SimpleFormatter} asks Level's package-private {@code getLocalizedLevelName()},
     * which Spool can only reach through the public {@code getLocalizedName()}: a level class
     * overriding that is not reproduced (refused: the record takes the host's path).
     */
    static void requireStandardLevelName(LogRecord record) {
        if (!STANDARD_LEVEL_NAME.get(record.getLevel().getClass())) {
            throw new IllegalArgumentException("level class " + record.getLevel().getClass().getName()
                    + " overrides getLocalizedName()");
        }
    }

    /** The formatted message (formatting it now when it was deferred; the writer thread only). */
    String message() {
        return message(null);
    }

    /**
     * Appends the formatted message ("null" for none) to {@code sb}; a deferred one is formatted
     * straight into it with {@code formats} (the log's own), without a {@code String} of its own.
     * The writer thread only.
     */
    void appendMessage(StringBuilder sb, JulMessageFormats formats) {
        String m = message;
        if (m != null || (rawMessage == null && bundle == null && parameters == null)) {
            sb.append(m);
        } else {
            JulMessages.appendMessage(sb, rawMessage, bundle, parameters, formats, locale);
        }
    }

    /**
     * The formatted message, a deferred one formatted now with {@code formats} (the log's own;
     * null: the JDK's {@code MessageFormat}); the writer thread only.
     */
    String message(JulMessageFormats formats) {
        String m = message;
        if (m == null) {
            m = rawMessage == null && bundle == null && parameters == null ? null
                    : JulMessages.formatMessage(rawMessage, bundle, parameters, formats, locale);
            message = m;
        }
        return m;
    }
}
