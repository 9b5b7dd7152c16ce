package dev.spool.agent.jul;

import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The charsets of a JUL {@code FileHandler} whose lines a journal can replay byte for byte (issue 33).
 * Recovery encodes each journaled line with {@code String.getBytes(charset)}; the handler's exact
 * {@code OutputStreamWriter} wrote it through the same charset's encoder with the same
 * {@code REPLACE} actions. The two agree for UTF-8, ISO-8859-1 and US-ASCII
 * ({@link JulDirectWrite#CHARSETS}) and for every single-byte charset that writes ASCII as itself and
 * puts {@code '?'} for what it cannot map (windows-1252, the ISO-8859 family, KOI8-R, ...):
 * {@code JulJournalCharsetsTest} compares both on random text in every such charset the JDK has.
 * Not: UTF-16 and UTF-32 ({@code getBytes} starts each line with a byte order mark), multi-byte
 * and stateful charsets (Shift_JIS, GBK, ISO-2022-JP: not proven here). A line ending in a high
 * surrogate is the {@code Writer}'s to pair, as in UTF-8.
 */
final class JulJournalCharsets {

    private static final String ASCII;

    static {
        StringBuilder b = new StringBuilder("\t\n\r");
        for (char c = 0x20; c < 0x7f; c++) {
            b.append(c);
        }
        ASCII = b.toString();
    }

    private JulJournalCharsets() {
    }

    /** The charset of an exact {@code OutputStreamWriter} ({@code writer}) when a journal replays its lines exactly, else null. */
    static Charset of(Object writer) {
        if (writer == null || writer.getClass() != OutputStreamWriter.class) {
            return null;
        }
        try {
            String name = ((OutputStreamWriter) writer).getEncoding(); // null once closed
            Charset cs = name == null ? null : Charset.forName(name);
            return cs != null && exact(cs) ? cs : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether {@code String.getBytes(cs)} is the bytes an {@code OutputStreamWriter} in {@code cs} writes for a line. */
    static boolean exact(Charset cs) {
        if (JulDirectWrite.CHARSETS.contains(cs)) {
            return true;
        }
        try {
            if (!cs.canEncode()) {
                return false;
            }
            CharsetEncoder e = cs.newEncoder();
            return e.maxBytesPerChar() == 1.0f && Arrays.equals(e.replacement(), new byte[] {'?'})
                    && Arrays.equals(ASCII.getBytes(cs), ASCII.getBytes(StandardCharsets.US_ASCII));
        } catch (RuntimeException e) { // an encoder the charset does not give
            return false;
        }
    }
}
