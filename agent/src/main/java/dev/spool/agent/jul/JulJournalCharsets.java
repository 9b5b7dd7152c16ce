package dev.spool.agent.jul;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The charsets of a JUL {@code FileHandler} whose lines a journal can replay byte for byte (issue 33).
 * Recovery encodes each journaled line with {@code String.getBytes(charset)}; the handler's exact
 * {@code OutputStreamWriter} wrote it through the same charset's encoder, with the same {@code REPLACE}
 * actions, but as one stream: the two agree only when the encoder carries nothing from one line to
 * the next.
 *
 * <p>Accepted: UTF-8, ISO-8859-1, US-ASCII ({@link JulDirectWrite#CHARSETS}) and every charset that
 * passes {@link #PROBE}: each probe line, written through one {@code OutputStreamWriter} and flushed,
 * is exactly its {@code getBytes}, twice over in sequence. That holds for the stateless charsets,
 * single- and multi-byte (windows-1252, KOI8-R, Shift_JIS, windows-31j, EUC-JP, GBK, GB18030, Big5,
 * EUC-KR, UTF-16BE/LE, EBCDIC single-byte pages, ...). It fails, and the handler is not journaled, for
 * the encoders that keep state between writes: a byte order mark written once ({@code UTF-16},
 * {@code x-UTF-16LE-BOM}), shift states ({@code ISO-2022-*}, EBCDIC double-byte pages with SO/SI such
 * as {@code x-IBM930}), a base character held for a combining mark ({@code x-SJIS_0213},
 * {@code x-MS932_0213}). {@code JulJournalCharsetsTest} writes random text of every script through every
 * accepted charset of the JDK and compares. A line ending in a high surrogate is the {@code Writer}'s to
 * pair, as in UTF-8.
 *
 * <p>Thread-safe: a charset's probe runs once (its encoder, the JDK's or a provider's, on the thread
 * opening the handler's journal) and its answer is kept.
 */
final class JulJournalCharsets {

    /**
     * The probe's lines, in order: ASCII, Latin, Cyrillic, Greek, Hangul, Han, kana, lines without a
     * newline ending in a double-byte character (a shift state would stay open), lone surrogates,
     * unmappable characters, and the combining pairs of JIS X 0213 and HKSCS split across two lines (an
     * encoder waiting for a combining mark would hold the first).
     */
    static final String[] PROBE = {"plain ascii 123\n", "\u6f22\u5b57\u30c6\u30b9\u30c8\n", "\u6f22\u5b57", "abc",
        "\u041f\u0440\u0438\u0432\u0435\u0442", "\n", "\u00e4\u00f6\u00fc \u00df \u00e9 \u00f1 \u00f8\t\r\n",
        "\ud83d\ude00x", "\udc00y", "\ud800z", "\u03b1\u03b2\u03b3", "\ud55c\uad6d\uc5b4", "\u4e2d\u6587\u7e41\u9ad4",
        "\u6f22", "\n", "x", "\u20ac\u00a9", "\n", "\u304b", "\u309a\n", "\u00e6", "\u0300", "\u00ca", "\u0304\n",
        "\u02e9", "\u02e5\n", "\u304b\u309a\n"};

    private static final Map<Charset, Boolean> PROBED = new ConcurrentHashMap<>();

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
        return JulDirectWrite.CHARSETS.contains(cs) || PROBED.computeIfAbsent(cs, JulJournalCharsets::probe);
    }

    private static boolean probe(Charset cs) {
        try {
            if (!cs.canEncode()) {
                return false;
            }
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            OutputStreamWriter writer = new OutputStreamWriter(file, cs);
            for (int round = 0; round < 2; round++) {
                for (String line : PROBE) {
                    int before = file.size();
                    writer.write(line);
                    writer.flush();
                    byte[] written = Arrays.copyOfRange(file.toByteArray(), before, file.size());
                    if (!Arrays.equals(written, line.getBytes(cs))) {
                        return false;
                    }
                }
            }
            return true;
        } catch (IOException | RuntimeException | LinkageError e) { // an encoder that fails: not journaled
            return false;
        }
    }
}
