package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a JUL journal replays a line as {@code String.getBytes(charset)}; for every charset
 * {@link JulJournalCharsets#exact} accepts, that is the bytes the handler's {@code OutputStreamWriter}
 * wrote, on random text of every kind (ASCII, Latin, Cyrillic, Greek, CJK, emoji pairs, lone
 * surrogates, unmappable characters, lines without a newline), one writer for many lines as a handler keeps it.
 */
class JulJournalCharsetsTest {

    @Test
    void shouldEncodeEveryLineAsTheHandlersWriterInEveryAcceptedCharset() throws Exception {
        Random random = new Random(33);
        List<String> accepted = new ArrayList<>();
        for (Charset cs : Charset.availableCharsets().values()) {
            if (!JulJournalCharsets.exact(cs)) {
                continue;
            }
            accepted.add(cs.name());
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            OutputStreamWriter writer = new OutputStreamWriter(file, cs);
            for (int i = 0; i < 300; i++) {
                String line = line(random);
                int before = file.size();
                writer.write(line);
                writer.flush();
                byte[] written = java.util.Arrays.copyOfRange(file.toByteArray(), before, file.size());
                assertArrayEquals(written, line.getBytes(cs), cs + ": " + escape(line));
            }
        }
        for (String name : List.of("windows-1252", "ISO-8859-15", "KOI8-R", "Shift_JIS", "windows-31j", "EUC-JP", "GBK",
                "GB18030", "Big5", "EUC-KR", "UTF-16BE", "UTF-16LE")) {
            assertTrue(accepted.contains(name), name + " not in " + accepted);
        }
    }

    @Test
    void shouldRefuseCharsetsWhoseEncoderKeepsStateBetweenLines() {
        // a byte order mark written once, shift states, a base character held for a combining mark
        for (String name : List.of("UTF-16", "x-UTF-16LE-BOM", "ISO-2022-JP", "ISO-2022-KR", "x-IBM930", "x-SJIS_0213",
                "x-MS932_0213")) {
            if (Charset.isSupported(name)) {
                assertFalse(JulJournalCharsets.exact(Charset.forName(name)), name);
            }
        }
    }

    /** A line of random pieces, most ending in a newline (never in a high surrogate: the writer keeps that one to pair). */
    private static String line(Random random) {
        StringBuilder b = new StringBuilder();
        int pieces = 1 + random.nextInt(12);
        for (int p = 0; p < pieces; p++) {
            switch (random.nextInt(10)) {
                case 0 -> b.append("plain ascii ").append(random.nextInt(1000));
                case 1 -> b.append("äöü ß é ñ ø");
                case 2 -> b.append("Привет мир");
                case 3 -> b.append("αβγ δ");
                case 4 -> b.append(random.nextBoolean() ? "\u6f22\u5b57\u30c6\u30b9\u30c8" : "\ud55c\uad6d\uc5b4 \u4e2d\u6587");
                case 5 -> b.append("\uD83D\uDE00"); // a pair: one unmappable character
                case 6 -> b.append(random.nextBoolean() ? '\uDC00' : '\uD800').append('x'); // a lone surrogate, mid-line
                case 7 -> b.append((char) (0x3000 + random.nextInt(0x6000))); // CJK punctuation, kana, Han
                case 8 -> b.append((char) random.nextInt(0xD800)); // anything below the surrogates, controls too
                default -> b.append((char) (0x80 + random.nextInt(0x780))); // anything of Latin-1 .. Armenian
            }
        }
        return random.nextInt(4) == 0 ? b.toString() : b.append('\n').toString(); // some lines without a newline
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x80 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return b.toString();
    }
}
