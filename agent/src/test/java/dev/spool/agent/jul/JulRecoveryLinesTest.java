package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TimeZone;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Differential: the line recovery writes straight from a journal frame ({@link JulRecoveryLines})
 * against the general path's, {@code CompiledSimpleFormatter.format(decoder.decode(payload)).getBytes(charset)}
 * (itself the JDK's {@code SimpleFormatter}'s text: {@link JulJournalTest}), byte for byte, for every
 * format of {@link SimpleFormatCorpus}, zones, locales with ASCII and non-ASCII digits and day
 * periods, four charsets, random records, and payloads with bytes flipped (unformattable either way,
 * or the same line).
 */
@ExtendWith(RestoresFormatDefaults.class)
class JulRecoveryLinesTest {
    private static final List<Charset> CHARSETS = List.of(StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1,
            StandardCharsets.US_ASCII, StandardCharsets.UTF_16LE);
    private static final List<String> ZONES = List.of("UTC", "Europe/Berlin", "Australia/Lord_Howe");
    private static final List<Locale> LOCALES = List.of(Locale.US, Locale.GERMANY, Locale.JAPAN,
            Locale.forLanguageTag("th-TH-u-nu-thai"), Locale.forLanguageTag("ar-EG"));

    @Test
    void shouldWriteTheSameBytesStraightFromTheFrameAsTheGeneralPathForEveryFormatZoneLocaleAndCharset() {
        Random random = new Random(3301);
        int compared = 0;
        int direct = 0;
        for (String format : SimpleFormatCorpus.ALL) {
            System.setProperty(CompiledSimpleFormatter.FORMAT_PROPERTY, format);
            String resolved = CompiledSimpleFormatter.resolveFormat(null);
            List<byte[]> payloads = payloads(resolved, random);
            for (Charset charset : CHARSETS) {
                JulRecoveryLines lines = new JulRecoveryLines(CompiledSimpleFormatter.compile(resolved), charset);
                CompiledSimpleFormatter general = CompiledSimpleFormatter.compile(resolved);
                JulMessageFormats formats = new JulMessageFormats();
                for (byte[] payload : payloads) {
                    assertSameLine(lines, general, formats, charset, payload, () -> "format " + resolved + " " + charset);
                    compared++;
                }
                direct += lines.directLines;
            }
        }
        assertTrue(compared > 10_000, "compared " + compared);
        assertTrue(direct > compared / 10, "straight from the frame: " + direct + " of " + compared);
    }

    /** A frame whose bytes were damaged (its CRC made to match): the same line, or unformattable on both paths. */
    @Test
    void shouldWriteTheSameBytesOrNothingForDamagedPayloads() {
        Random random = new Random(3302);
        int compared = 0;
        for (String format : List.of(CompiledSimpleFormatter.DEFAULT_FORMAT, "%1$tF %1$tT.%1$tL %4$-7s %3$.12s: %5$s%6$s%n",
                "%1$tH:%1$tM:%1$tS.%1$tN %2$10s %5$s%n")) {
            List<byte[]> payloads = payloads(format, random);
            JulRecoveryLines lines = new JulRecoveryLines(CompiledSimpleFormatter.compile(format), StandardCharsets.UTF_8);
            CompiledSimpleFormatter general = CompiledSimpleFormatter.compile(format);
            JulMessageFormats formats = new JulMessageFormats();
            for (int round = 0; round < 20; round++) {
                for (byte[] original : payloads) {
                    byte[] payload = original.clone();
                    for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                        int at = random.nextInt(payload.length);
                        payload[at] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : (byte) (payload[at] ^ (1 << random.nextInt(8)));
                    }
                    assertSameLine(lines, general, formats, StandardCharsets.UTF_8, payload, () -> "format " + format);
                    compared++;
                }
            }
        }
        assertTrue(compared > 5_000, "compared " + compared);
    }

    private static void assertSameLine(JulRecoveryLines lines, CompiledSimpleFormatter general, JulMessageFormats formats,
                                       Charset charset, byte[] payload, java.util.function.Supplier<String> what) {
        ByteBuffer m = frame(payload);
        String expected;
        try {
            ByteBuffer p = m.slice(MappedLogJournal.FRAME_HEADER, payload.length);
            expected = hex(general.format(new JulJournalCodec.Decoder().decode(p), formats).getBytes(charset));
        } catch (RuntimeException e) {
            expected = "unformattable";
        }
        JulRecoveryLines.Batch b = new JulRecoveryLines.Batch(2, 16);
        b.put(new byte[] {'x'}, 0, 1); // a line before it in the batch
        b.ends[0] = 1;
        lines.append(m, 0, b, 1);
        String actual = b.unreadable[1] ? "unformattable" : hex(java.util.Arrays.copyOfRange(b.bytes, b.from(1), b.ends[1]));
        assertEquals(expected, actual, what);
        assertEquals((byte) 'x', b.bytes[0]);
    }

    /** A frame as the journal holds it: the payload's length, then the payload at {@link MappedLogJournal#FRAME_HEADER}. */
    private static ByteBuffer frame(byte[] payload) {
        ByteBuffer m = ByteBuffer.allocate(MappedLogJournal.FRAME_HEADER + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        m.putInt(0, payload.length);
        m.put(MappedLogJournal.FRAME_HEADER, payload);
        return m;
    }

    /** Payloads of random records captured under each zone and locale (capture failures, as the JDK's, left out). */
    private static List<byte[]> payloads(String format, Random random) {
        CompiledSimpleFormatter f = CompiledSimpleFormatter.compile(format);
        JulJournalCodec codec = new JulJournalCodec();
        List<byte[]> out = new ArrayList<>();
        for (String zoneId : ZONES) {
            TimeZone.setDefault(TimeZone.getTimeZone(zoneId));
            for (Locale l : LOCALES) {
                Locale.setDefault(l);
                for (Instant at : CompiledSimpleFormatterTest.instants(ZoneId.of(zoneId), random)) {
                    for (int k = 0; k < 3; k++) {
                        LogRecord r = CompiledSimpleFormatterTest.randomRecord(random, at.plusMillis(k));
                        try {
                            ByteBuffer b = codec.encode(JulCapture.capture(r, f.uses(2), f.uses(5)));
                            out.add(java.util.Arrays.copyOf(b.array(), b.position()));
                        } catch (RuntimeException e) {
                            // the JDK's formatter fails for it too (CompiledSimpleFormatterTest): never journaled
                        }
                    }
                }
            }
        }
        return out;
    }

    private static String hex(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1); // one char per byte: a readable diff, exact
    }
}
