package dev.spool.agent.jul;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.logging.LogRecord;

/**
 * The JDK's {@code XMLFormatter.format} over a {@link JulXmlCapture}: the same elements in the
 * same order with the same escaping ({@code <}, {@code >}, {@code &}; a null text as
 * {@code <null>}), for the formatter's {@code useInstant} (ISO instant with {@code <nanos>}, or
 * the old local {@code yyyy-MM-ddTHH:mm:ss} date), which is private to the handler's formatter and
 * read from it ({@link JulPrivateAccess}). The head and tail ({@code getHead}/{@code getTail})
 * are not reproduced: the handler still asks its own formatter, on the writer thread, when it
 * writes the first record of a file and when it closes it (JDK 17–25).
 *
 * <p>The old date uses the default time zone and locale at the record's call, as the JDK's (captured,
 * {@link JulXmlCapture}); so are the exception's text and frames (the throwable's methods are host
 * code: run on the caller's thread, never by the writer under the handler's monitor). Thread-safe
 * (immutable).
 */
final class JulXmlFormat implements JulFormat {

    private final boolean useInstant;

    JulXmlFormat(boolean useInstant) {
        this.useInstant = useInstant;
    }

    /** The journal's format string's first line ({@code MappedLogJournal}): "xml-instant" or "xml-local". */
    String journalFormat() {
        return useInstant ? INSTANT : LOCAL;
    }

    static final String INSTANT = "xml-instant";
    /** {@code XMLFormatter.getTail}'s text (JDK 17-25), which a handler writes at a file's close. */
    static final String TAIL = "</log>\n";
    static final String LOCAL = "xml-local";

    @Override
    public JulCapture capture(LogRecord record, JulSources sources) {
        return JulXmlCapture.capture(record, sources, !useInstant);
    }

    @Override
    public String format(JulCapture captured) {
        JulXmlCapture r = (JulXmlCapture) captured;
        StringBuilder sb = new StringBuilder(500);
        sb.append("<record>\n");
        Instant instant = Instant.ofEpochSecond(r.epochSecond, r.nano);
        sb.append("  <date>");
        if (useInstant) {
            DateTimeFormatter.ISO_INSTANT.formatTo(instant, sb);
        } else {
            appendIso8601(sb, instant.toEpochMilli(), r);
        }
        sb.append("</date>\n");
        sb.append("  <millis>").append(instant.toEpochMilli()).append("</millis>\n");
        int nanoAdjustment = instant.getNano() % 1000_000;
        if (useInstant && nanoAdjustment != 0) {
            sb.append("  <nanos>").append(nanoAdjustment).append("</nanos>\n");
        }
        sb.append("  <sequence>").append(r.sequence).append("</sequence>\n");
        if (r.loggerName != null) {
            sb.append("  <logger>");
            escape(sb, r.loggerName);
            sb.append("</logger>\n");
        }
        sb.append("  <level>");
        escape(sb, r.levelText());
        sb.append("</level>\n");
        if (r.sourceClass != null) {
            sb.append("  <class>");
            escape(sb, r.sourceClass);
            sb.append("</class>\n");
        }
        if (r.sourceMethod != null) {
            sb.append("  <method>");
            escape(sb, r.sourceMethod);
            sb.append("</method>\n");
        }
        sb.append("  <thread>").append(r.threadId).append("</thread>\n");
        if (r.hasMessage) {
            sb.append("  <message>");
            escape(sb, r.message());
            sb.append("</message>\n");
        }
        if (r.localised) {
            sb.append("  <key>");
            escape(sb, r.key);
            sb.append("</key>\n");
            sb.append("  <catalog>");
            escape(sb, r.catalog);
            sb.append("</catalog>\n");
        }
        if (r.parameterTexts != null) {
            for (String text : r.parameterTexts) {
                sb.append("  <param>");
                escape(sb, text);
                sb.append("</param>\n");
            }
        }
        if (r.exception != null) {
            sb.append(r.exception); // made at the call (JulXmlCapture)
        }
        sb.append("</record>\n");
        return sb.toString();
    }

    /**
     * The JDK's {@code <exception>} element of {@code th} (its {@code toString()} and its frames): host
     * code, so made on the caller's thread at the call ({@link JulXmlCapture}), never by the writer.
     */
    static String exception(Throwable th) {
        StringBuilder sb = new StringBuilder(256);
        sb.append("  <exception>\n");
        sb.append("    <message>");
        escape(sb, th.toString());
        sb.append("</message>\n");
        for (StackTraceElement frame : th.getStackTrace()) {
            sb.append("    <frame>\n");
            sb.append("      <class>");
            escape(sb, frame.getClassName());
            sb.append("</class>\n");
            sb.append("      <method>");
            escape(sb, frame.getMethodName());
            sb.append("</method>\n");
            if (frame.getLineNumber() >= 0) {
                sb.append("      <line>").append(frame.getLineNumber()).append("</line>\n");
            }
            sb.append("    </frame>\n");
        }
        sb.append("  </exception>\n");
        return sb.toString();
    }

    /** The JDK's old date: local date and time to the second (the default time zone and locale at the call, a new calendar each time). */
    private static void appendIso8601(StringBuilder sb, long millis, JulXmlCapture r) {
        GregorianCalendar cal = new GregorianCalendar(JulDefaultZone.copy(r.timeZone), r.locale);
        cal.setTimeInMillis(millis);
        sb.append(cal.get(Calendar.YEAR)).append('-');
        twoDigits(sb, cal.get(Calendar.MONTH) + 1);
        sb.append('-');
        twoDigits(sb, cal.get(Calendar.DAY_OF_MONTH));
        sb.append('T');
        twoDigits(sb, cal.get(Calendar.HOUR_OF_DAY));
        sb.append(':');
        twoDigits(sb, cal.get(Calendar.MINUTE));
        sb.append(':');
        twoDigits(sb, cal.get(Calendar.SECOND));
    }

    private static void twoDigits(StringBuilder sb, int x) {
        if (x < 10) {
            sb.append('0');
        }
        sb.append(x);
    }

    private static void escape(StringBuilder sb, String text) {
        String t = text == null ? "<null>" : text;
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch == '<') {
                sb.append("&lt;");
            } else if (ch == '>') {
                sb.append("&gt;");
            } else if (ch == '&') {
                sb.append("&amp;");
            } else {
                sb.append(ch);
            }
        }
    }
}
