package dev.spool.agent.reliability;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link JulJournalKillHost}'s {@code XMLFormatter} log read back for {@link JulJournalKillIT}: the file
 * must be heads and whole records only; each record becomes the {@code SimpleFormatter}-like line the
 * test checks (its message is the host's numbered text), and the heads are counted.
 */
final class JulXmlRecords {
    static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
            + "<!DOCTYPE log SYSTEM \"logger.dtd\">\n<log>\n";
    static final String TAIL = "</log>\n";
    private static final Pattern RECORD = Pattern.compile("<record>\n  <date>[^<\n]+</date>\n  <millis>\\d+</millis>\n"
            + "(?:  <nanos>\\d+</nanos>\n)?  <sequence>\\d+</sequence>\n  <logger>kill\\.jul</logger>\n  <level>INFO</level>\n"
            + "  <class>[^<\n]+</class>\n  <method>[^<\n]+</method>\n  <thread>\\d+</thread>\n  <message>([^<\n]*)</message>\n"
            + "</record>\n");

    /** The records as lines, and the number of heads. */
    record Parsed(String lines, int heads) {
    }

    private JulXmlRecords() {
    }

    /** Reads {@code text}; anything not a head or a whole record is added to {@code problems}. */
    static Parsed parse(String text, List<String> problems) {
        StringBuilder lines = new StringBuilder(text.length() / 4);
        Matcher m = RECORD.matcher(text);
        int heads = 0;
        int at = 0;
        while (at < text.length()) {
            if (text.startsWith(TAIL, at)) {
                at += TAIL.length(); // a rotated file's (its handler closed it)
                continue;
            }
            if (text.startsWith(HEAD, at)) {
                heads++;
                at += HEAD.length();
                continue;
            }
            m.region(at, text.length());
            if (m.lookingAt()) {
                lines.append("2000-01-01 00:00:00.000 INFO kill.jul: ").append(m.group(1)).append('\n');
                at = m.end();
                continue;
            }
            int end = text.indexOf("</record>\n", at);
            problems.add("not a head or a whole record at char " + at + ": '"
                    + text.substring(at, Math.min(text.length(), at + 200)) + "'");
            at = end < 0 ? text.length() : end + "</record>\n".length();
        }
        return new Parsed(lines.toString(), heads);
    }
}
