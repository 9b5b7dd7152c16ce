package dev.spool.agent.jul;

import java.util.Locale;
import java.util.ResourceBundle;
import java.util.TimeZone;
import java.util.logging.LogRecord;

/**
 * What the JDK's {@code XMLFormatter.format} reads from a {@link LogRecord}, taken on the calling
 * thread: the common part ({@link JulCapture}: instant, logger, level, thrown, the message with
 * its parameters — formatted later only when they are immutable JDK values) plus the sequence
 * number, the thread id, the source class and method (inferred here: the XML always prints them),
 * whether the message was localised (its key and catalog name), and the parameters' own text when
 * the message has no {@code '{'} (the XML then lists each parameter's {@code toString()}, which
 * must run at the call), the exception's element (its {@code toString()} and frames: host code, run
 * at the call), and for the old date ({@code useInstant} off) the default time zone.
 * Immutable once captured.
 */
final class JulXmlCapture extends JulCapture {

    /** A parameter whose {@code toString()} threw: the JDK prints "???". */
    static final String THREW = "???";

    final long sequence;
    final long threadId;
    final String sourceClass;
    final String sourceMethod;
    final boolean hasMessage;
    /** Whether the message is a key of the record's bundle (then {@link #key} and {@link #catalog} are printed). */
    final boolean localised;
    final String key;
    final String catalog;
    /** Each parameter's {@code toString()} (null when it returned null, {@link #THREW} when it threw), or null. */
    final String[] parameterTexts;
    /** The {@code <exception>} element, made at the call after the parameters (as the JDK's order), or null without a thrown. */
    final String exception;
    /** The default time zone at the call ({@link JulDefaultZone#timeZoneAtCall}: copy it to use it), or null when the date is an instant. */
    final TimeZone timeZone;

    private JulXmlCapture(LogRecord record, String sourceClass, String sourceMethod, boolean localDate) {
        super(record, null, record.getMessage() != null, false, false);
        this.timeZone = localDate ? JulDefaultZone.timeZoneAtCall() : null;
        this.sequence = record.getSequenceNumber();
        this.threadId = record.getLongThreadID();
        this.sourceClass = sourceClass;
        this.sourceMethod = sourceMethod;
        this.hasMessage = record.getMessage() != null;
        boolean isKey = false;
        ResourceBundle bundle = record.getResourceBundle();
        try {
            isKey = bundle != null && bundle.getString(record.getMessage()) != null;
        } catch (Exception ex) {
            // as the JDK: the message is not in the catalog
        }
        this.localised = isKey;
        this.key = isKey ? record.getMessage() : null;
        this.catalog = isKey ? record.getResourceBundleName() : null;
        Object[] parameters = record.getParameters();
        // the JDK's own test; a null message with parameters throws here as it throws there (a format failure)
        if (parameters != null && parameters.length != 0 && messageWithoutBrace(record)) {
            String[] texts = new String[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
                try {
                    texts[i] = parameters[i].toString();
                } catch (Exception ex) {
                    texts[i] = THREW;
                }
            }
            this.parameterTexts = texts;
        } else {
            this.parameterTexts = null;
        }
        try {
            this.exception = thrown == null ? null : JulXmlFormat.exception(thrown); // the throwable's methods: host code
        } catch (Exception e) {
            throw new HostCodeFailed(e);
        }
    }

    /** Recovery ({@link JulXmlJournalCodec.Decoder}): what a journal frame holds; {@code level}: the level's name. */
    JulXmlCapture(long epochSecond, int nano, String loggerName, String level, Locale locale, String message,
                  String rawMessage, Object[] parameters, long sequence, long threadId, String sourceClass,
                  String sourceMethod, boolean hasMessage, String key, String catalog, String[] parameterTexts,
                  String exception, TimeZone timeZone) {
        super(epochSecond, nano, null, loggerName, level, null, locale, null, message, rawMessage, parameters);
        this.sequence = sequence;
        this.threadId = threadId;
        this.sourceClass = sourceClass;
        this.sourceMethod = sourceMethod;
        this.hasMessage = hasMessage;
        this.localised = key != null;
        this.key = key;
        this.catalog = catalog;
        this.parameterTexts = parameterTexts;
        this.exception = exception;
        this.timeZone = timeZone;
    }

    /** The level's text in the XML ({@code Level.toString()}, final: its name); a restored capture's as journaled. */
    String levelText() {
        return level != null ? level.toString() : levelName();
    }

    private static boolean messageWithoutBrace(LogRecord record) {
        try {
            return record.getMessage().indexOf('{') == -1; // the JDK's expression: the same NPE text for a null message
        } catch (NullPointerException e) {
            throw new HostCodeFailed(e); // where the JDK's format fails
        }
    }

    /** Captures {@code record} for {@code XMLFormatter} on the calling thread ({@code localDate}: {@code useInstant} off). */
    static JulXmlCapture capture(LogRecord record, JulSources sources, boolean localDate) {
        if (sources != null) {
            sources.infer(record); // Spool's walk when the record still needs one (else the getter below infers)
        }
        String cls = record.getSourceClassName();
        String method = record.getSourceMethodName();
        return new JulXmlCapture(record, cls, method, localDate);
    }
}
