package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link JulDirectWrite}'s claim: for the charsets it serves, a line's {@code String.getBytes} is
 * exactly what the handler's {@code OutputStreamWriter} writes for it (the JDK's
 * {@code StreamEncoder}: replacement {@code '?'} for unmappable characters and lone surrogates, a
 * pair unmappable as one character) — as one write after the one before, so a sequence of lines
 * equals the {@code Writer}'s stream of them, provided no line ends in a high surrogate (the
 * {@code Writer} keeps that char for its next write: shown here, and never written directly).
 */
class JulDirectWriteTest {

    /** Characters that make encoders differ: ASCII, Latin-1, BMP, pairs, lone surrogates, controls. */
    private static final char[] ALPHABET = {'a', 'Z', '0', ' ', '\n', '\r', '\t', '%', '?', '\u0000', '\u007f', '\u0080',
        '\u00e9', '\u00ff', '\u0100', '\u20ac', '\u2713', '\u4e2d', '\ufeff', '\ufffd', '\uffff', '\ud800', '\udbff',
        '\udc00', '\udfff', '\ud83d', '\ude00'};

    @Test
    void shouldEncodeEveryLineAsTheHandlersWriterDoes_inEachServedCharset() throws IOException {
        SplittableRandom random = new SplittableRandom(13);
        for (Charset cs : JulDirectWrite.CHARSETS) {
            for (int round = 0; round < 200; round++) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    String line = randomText(random, random.nextInt(0, 120));
                    if (JulDirectWrite.endsInHighSurrogate(line)) {
                        line += "x"; // never written directly (see the next test)
                    }
                    lines.add(line);
                }
                ByteArrayOutputStream viaWriter = new ByteArrayOutputStream();
                Writer writer = new OutputStreamWriter(viaWriter, cs);
                ByteArrayOutputStream direct = new ByteArrayOutputStream();
                for (String line : lines) {
                    writer.write(line);
                    writer.flush(); // FileHandler flushes after each record
                    direct.write(line.getBytes(cs)); // what JulDirectWrite writes into the meter
                    assertArrayEquals(viaWriter.toByteArray(), direct.toByteArray(), cs + ": after " + escape(line));
                }
            }
        }
    }

    @Test
    void shouldSeeThatAWriterKeepsATrailingHighSurrogateForItsNextWrite() throws IOException {
        ByteArrayOutputStream viaWriter = new ByteArrayOutputStream();
        Writer writer = new OutputStreamWriter(viaWriter, StandardCharsets.UTF_8);
        writer.write("a\ud83d");
        writer.flush();
        writer.write("\ude00b");
        writer.flush();
        assertArrayEquals("a\ud83d\ude00b".getBytes(StandardCharsets.UTF_8), viaWriter.toByteArray(),
                "the pair split across two writes is one character: the Writer held the high surrogate");
        assertFalse(java.util.Arrays.equals(viaWriter.toByteArray(), concat("a\ud83d", "\ude00b")),
                "direct writes of the two lines would differ: such a line goes to the Writer, and every line after it");
        assertTrue(JulDirectWrite.endsInHighSurrogate("a\ud83d"));
        assertFalse(JulDirectWrite.endsInHighSurrogate("a\ude00"));
        assertFalse(JulDirectWrite.endsInHighSurrogate(""));
    }

    @Test
    void shouldServeOnlyAnExactOutputStreamWriterInAKnownCharset() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(StandardCharsets.UTF_8, JulDirectWrite.charsetOf(new OutputStreamWriter(out, StandardCharsets.UTF_8)));
        assertEquals(StandardCharsets.ISO_8859_1, JulDirectWrite.charsetOf(new OutputStreamWriter(out, "ISO-8859-1")));
        assertEquals(StandardCharsets.US_ASCII, JulDirectWrite.charsetOf(new OutputStreamWriter(out, "US-ASCII")));
        assertNull(JulDirectWrite.charsetOf(new OutputStreamWriter(out, StandardCharsets.UTF_16)), "a BOM per getBytes");
        assertNull(JulDirectWrite.charsetOf(new OutputStreamWriter(out, "ISO-2022-JP")), "a stateful encoder");
        assertNull(JulDirectWrite.charsetOf(new OutputStreamWriter(out, "windows-1252")), "not proven here");
        assertNull(JulDirectWrite.charsetOf(new OutputStreamWriter(out, StandardCharsets.UTF_8) { }), "a subclass");
        OutputStreamWriter closed = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        closed.close();
        assertNull(JulDirectWrite.charsetOf(closed), "a closed Writer");
        assertNull(JulDirectWrite.charsetOf(null));
    }

    private static String randomText(SplittableRandom random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000) : ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    private static byte[] concat(String a, String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        byte[] r = java.util.Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        s.chars().forEach(c -> sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return sb.toString();
    }
}
