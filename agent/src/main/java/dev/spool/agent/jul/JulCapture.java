package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

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
 *   <li>the message: formatted at once with its parameters, unless there is no resource bundle and
 *       every parameter is an immutable JDK value (then {@code MessageFormat} runs on the writer,
 *       on a private copy of the parameter array, with the same result and no host code); for
 *       {@code SimpleFormatter}, whose {@code format} always formats the message, also when the format
 *       string does not print it but formatting runs host code (a bundle, a parameter's {@code toString()});
 *   <li>for {@code SimpleFormatter}, the thrown's text (its stack trace printed here, as the JDK's
 *       {@code format} prints it at the call whether or not the format string shows it): the
 *       throwable's own methods are host code, which must run on the caller's thread, in the
 *       caller's locks, and never on the writer under the handler's monitor (issue 30: a
 *       {@code getMessage()} taking a lock the caller holds while it flushes deadlocked);
 *   <li>the level's localized name when the level has a resource bundle of its own (the host's
 *       bundle is host code); a level of the JDK's bundle or none is named by the writer;
 *   <li>the default time zone when the format prints the date (what {@code ZoneId.systemDefault()},
 *       which the JDK's {@code format} reads, answers: {@link JulDefaultZone}) and the default {@code FORMAT} locale (dates, numbers, a
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
    /** {@code SimpleFormatter}'s sixth argument ("" without a thrown), made at the call; null for {@code XMLFormatter}'s capture. */
    final String thrownText;
    /** The level's localized name read at the call (a level with a bundle of its own), or null: the writer asks the level. */
    private String levelName; // set again by a journaled record's caller before the offer (levelNameAtCall)
    /** The default time zone at the call ({@link JulDefaultZone#atCall}), or null when the format prints no date. */
    private final Object zoneAtCall;
    /** {@code Locale.getDefault(Locale.Category.FORMAT)} at the call. */
    final Locale locale;
    /** The host's record: the writer publishes it again through the handler, which gets the captured text. */
    final LogRecord original;
    /** The formatted message, or null while {@link #rawMessage} still has to be formatted. */
    private String message;
    private final String rawMessage;
    private final Object[] parameters;

    /**
     * Takes what every format reads on the calling thread: instant, logger name, level, thrown,
     * the given {@code source}, and the message when {@code needsMessage} (see {@link #capture}).
     * {@code formatsAnyway}: the formatter formats the message and prints the thrown even when it
     * does not show them ({@code SimpleFormatter}): their host code runs here, and a failure of it
     * throws {@link HostCodeFailed} (the record is then not written, as the JDK's).
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
        this.zoneAtCall = needsZone ? JulDefaultZone.atCall() : null;
        this.locale = Locale.getDefault(Locale.Category.FORMAT);
        String text = null;
        String raw = null;
        Object[] params = null;
        Object[] p = record.getParameters();
        ResourceBundle catalog = record.getResourceBundle();
        // whether the JDK's formatMessage runs host code for this record: the bundle's lookup, a parameter's toString()
        boolean hostCode = catalog != null || (JulMessages.mayFormat(p) && !JulMessages.allImmutable(p));
        // SimpleFormatter's format calls formatMessage whether or not the format prints the message: its host code runs
        // here, at the call, in the JDK's order (a toString() that logs writes its record first, issue 30)
        if (needsMessage || (formatsAnyway && hostCode)) {
            if (!JulMessages.mayFormat(p) && catalog == null) {
                text = record.getMessage();
            } else if (!hostCode && record.getMessage() != null) {
                raw = record.getMessage();
                params = p.clone(); // the caller may reuse its array
            } else {
                try {
                    text = JulMessages.formatMessage(record.getMessage(), catalog, p);
                } catch (Exception e) {
                    throw new HostCodeFailed(e); // a bundle that throws (a null key, a value not a String)
                }
            }
        }
        this.message = text;
        this.rawMessage = raw;
        this.parameters = params;
        // after the message, as the JDK's SimpleFormatter.format: the throwable's methods run here, on the caller's thread
        try {
            this.thrownText = formatsAnyway ? JulMessages.thrownText(thrown) : null;
        } catch (Exception e) {
            throw new HostCodeFailed(e);
        }
        // then the level's name, the last argument the JDK's format evaluates
        this.levelName = formatsAnyway && hasOwnBundle(level) ? level.getLocalizedName() : null;
    }

    /**
     * Recovery ({@link JulJournalCodec.Decoder}, {@link JulXmlJournalCodec.Decoder}): a capture read back from a
     * journal frame; no record, no level object ({@code levelName}: the name the writer printed).
     */
    JulCapture(long epochSecond, int nano, String source, String loggerName, String levelName, ZoneId zone,
                       Locale locale, String thrownText, String message, String rawMessage, Object[] parameters) {
        this.epochSecond = epochSecond;
        this.nano = nano;
        this.source = source;
        this.loggerName = loggerName;
        this.level = null;
        this.thrown = null;
        this.thrownText = thrownText;
        this.levelName = levelName == null ? "null" : levelName;
        this.zoneAtCall = zone;
        this.locale = locale;
        this.original = null;
        this.message = message;
        this.rawMessage = rawMessage;
        this.parameters = parameters;
    }

    static JulCapture restored(long epochSecond, int nano, String source, String loggerName, String levelName, ZoneId zone,
                               Locale locale, String thrownText, String message, String rawMessage, Object[] parameters) {
        return new JulCapture(epochSecond, nano, source, loggerName, levelName, zone, locale, thrownText, message,
                rawMessage, parameters);
    }

    /** The journal frame holding this record ({@link MappedLogJournal}), or -1; set by the caller before the offer. */
    long journalAt = -1;

    /** The default zone as read at the call (null: the format prints no date). */
    Object zoneAtCall() {
        return zoneAtCall;
    }

    /** The message as formatted at the call, or null (deferred, or not captured). Before the offer only. */
    String capturedMessage() {
        return message;
    }

    /** A deferred message's pattern, or null. */
    String capturedRawMessage() {
        return rawMessage;
    }

    /** A deferred message's parameters (immutable JDK values), or null. */
    Object[] capturedParameters() {
        return parameters;
    }

    /**
     * The JDK's formatter would have failed on this record, at the call, after running the host's code
     * this capture ran in its place (a throwable's {@code getMessage()} that throws, a bundle that does):
     * the record must not take the host's path, which would run that code a second time; the caller
     * reports {@link #getCause()} to the handler's {@code ErrorManager} as the JDK's {@code FORMAT_FAILURE}.
     */
    static final class HostCodeFailed extends RuntimeException {
        HostCodeFailed(Exception cause) {
            super(cause.toString(), cause, false, false);
        }

        Exception failure() {
            return (Exception) getCause();
        }
    }

    /** The JDK's own levels' bundle: naming a level of it (or of none) runs no host code. */
    private static final String JDK_LEVEL_BUNDLE = "sun.util.logging.resources.logging";

    private static boolean hasOwnBundle(Level level) {
        String name = level.getResourceBundleName();
        return name != null && !name.equals(JDK_LEVEL_BUNDLE);
    }

    /** The level's localized name, as the JDK's {@code getLocalizedLevelName()} (read at the call when the level has a bundle of its own). */
    String levelName() {
        return levelName != null ? levelName : level.getLocalizedName();
    }

    /**
     * A journaled record (the caller, before the offer): the level's name as the caller read it, so
     * the writer prints what the journal holds (as the JDK's format, which names the level at the call).
     */
    void levelNameAtCall(String name) {
        if (levelName == null) {
            levelName = name;
        }
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

    /** The default time zone at the call, or null when the format prints no date (the writer). */
    ZoneId zone() {
        return zoneAtCall == null ? null : JulDefaultZone.zoneId(zoneAtCall);
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
        if (m != null || (rawMessage == null && parameters == null)) {
            sb.append(m);
        } else {
            JulMessages.appendMessage(sb, rawMessage, null, parameters, formats, locale);
        }
    }

    /**
     * The formatted message, a deferred one formatted now with {@code formats} (the log's own;
     * null: the JDK's {@code MessageFormat}); the writer thread only.
     */
    String message(JulMessageFormats formats) {
        String m = message;
        if (m == null) {
            m = rawMessage == null && parameters == null ? null
                    : JulMessages.formatMessage(rawMessage, null, parameters, formats, locale);
            message = m;
        }
        return m;
    }
}
