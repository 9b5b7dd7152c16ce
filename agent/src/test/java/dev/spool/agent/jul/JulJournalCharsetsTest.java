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
 * surrogates, unmappable characters), one writer for many lines as a handler keeps it.
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
        assertTrue(accepted.contains("windows-1252") && accepted.contains("ISO-8859-15") && accepted.contains("KOI8-R"),
                "accepted: " + accepted);
    }

    @Test
    void shouldRefuseCharsetsWhoseLinesAreNotTheWritersBytes() {
        for (String name : List.of("UTF-16", "UTF-16LE", "UTF-32", "Shift_JIS", "GBK", "ISO-2022-JP", "x-UTF-16LE-BOM")) {
            if (Charset.isSupported(name)) {
                assertFalse(JulJournalCharsets.exact(Charset.forName(name)), name);
            }
        }
    }

    /** A line of random pieces ending in a newline (never in a high surrogate: the writer keeps that one to pair). */
    private static String line(Random random) {
        StringBuilder b = new StringBuilder();
        int pieces = 1 + random.nextInt(12);
        for (int p = 0; p < pieces; p++) {
            switch (random.nextInt(8)) {
                case 0 -> b.append("plain ascii ").append(random.nextInt(1000));
                case 1 -> b.append("äöü ß é ñ ø");
                case 2 -> b.append("Привет мир");
                case 3 -> b.append("αβγ δ");
                case 4 -> b.append("漢字テスト");
                case 5 -> b.append("\uD83D\uDE00"); // a pair: one unmappable character
                case 6 -> b.append(random.nextBoolean() ? '\uDC00' : '\uD800').append('x'); // a lone surrogate, mid-line
                default -> b.append((char) (0x80 + random.nextInt(0x780))); // anything of Latin-1 .. Armenian
            }
        }
        return b.append('\n').toString();
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x80 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return b.toString();
    }
}
