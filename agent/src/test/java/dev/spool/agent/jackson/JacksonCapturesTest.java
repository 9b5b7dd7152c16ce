package dev.spool.agent.jackson;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.spool.agent.host.DiffCases;
import dev.spool.buffer.SnapshotContent;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture differential in one JVM on the build's Jackson: for every case of
 * {@link DiffCases}, the plain {@code writeValue(File)} against capture then encode (byte for
 * byte), and every read of that file against the read served from the tokens (the value with
 * every node's type). A case the capture declines must be one the encode-on-call path handles;
 * a plain write that throws must never be captured. {@code CaptureDifferentialIT} runs the same
 * catalogue through the agent on other Jackson versions.
 */
class JacksonCapturesTest {

    @TempDir
    Path dir;

    @Test
    void shouldEncodeEveryCaptureToThePlainBytesAndServeOnlyIdenticalReads() throws Exception {
        List<String> problems = new ArrayList<>();
        JacksonCaptures captures = new JacksonCaptures(true, (k, m) -> problems.add(m));
        List<String> mismatches = new ArrayList<>();
        Map<String, String> verdicts = new LinkedHashMap<>();
        int captured = 0;
        int served = 0;
        int n = 0;
        List<DiffCases.Case> forPlain = DiffCases.cases(); // fresh values: an iterator is consumed by a write
        List<DiffCases.Case> forCapture = DiffCases.cases();
        for (int i = 0; i < forPlain.size(); i++) {
            DiffCases.Case c = forPlain.get(i);
            DiffCases.Case same = forCapture.get(i);
            File f = dir.resolve((n++) + ".json").toFile();
            byte[] plain = null;
            Throwable plainError = null;
            try {
                write(same.caller(), f, same.value());
                plain = Files.readAllBytes(f.toPath());
            } catch (Exception e) {
                plainError = e;
            }
            JacksonCaptures.Outcome outcome = captures.capture(c.caller(), c.value(), 64L << 20);
            SnapshotContent content = outcome.content();
            // (plain write on 'same', capture on 'c': each consumes its own value)
            if (plainError != null) {
                if (content != null) {
                    String error = String.valueOf(plainError); // a deep value's reference chain is long: its start says enough
                    mismatches.add(c.name() + ": captured although the plain write throws " + error.substring(0, Math.min(300, error.length())));
                }
                if (outcome.failure() != null && outcome.failure().getClass() != plainError.getClass()) {
                    mismatches.add(c.name() + ": the capture's one run threw " + outcome.failure() + ", the plain write " + plainError);
                }
                byte[] torn = f.exists() ? Files.readAllBytes(f.toPath()) : null;
                if (outcome.failure() != null && !Arrays.equals(torn, outcome.failedBytes())) {
                    mismatches.add(c.name() + ": the plain write left " + (torn == null ? "no file" : new String(torn,
                            java.nio.charset.StandardCharsets.UTF_8)) + ", the capture's failure "
                            + new String(outcome.failedBytes(), java.nio.charset.StandardCharsets.UTF_8));
                }
                verdicts.put(c.name(), "throws");
                continue;
            }
            if (outcome.failure() != null) {
                mismatches.add(c.name() + ": the capture's one run threw " + outcome.failure() + " where the plain write did not");
            }
            if (content == null) {
                verdicts.put(c.name(), "encoded at call: " + outcome.reason());
                continue;
            }
            captured++;
            byte[] encoded = content.encode();
            if (!Arrays.equals(plain, encoded)) {
                mismatches.add(c.name() + ": bytes differ\n  plain:   " + new String(plain, java.nio.charset.StandardCharsets.UTF_8)
                        + "\n  capture: " + new String(encoded, java.nio.charset.StandardCharsets.UTF_8));
            }
            StringBuilder readVerdict = new StringBuilder("captured; token reads:");
            for (DiffCases.Read r : DiffCases.reads(c)) {
                Object fromTokens = captures.read(content, r.reader(), r.method(), r.type());
                if (fromTokens == HostJackson.NOT_SERVED) {
                    continue;
                }
                served++;
                readVerdict.append(' ').append(r.name());
                String expected = DiffCases.read(r, f);
                String actual = DiffCases.describe(fromTokens);
                if (!expected.equals(actual)) {
                    mismatches.add(c.name() + " read " + r.name() + ": file gives " + expected + "\n  tokens give " + actual);
                }
            }
            verdicts.put(c.name(), readVerdict.toString());
        }
        verdicts.forEach((k, v) -> System.out.println("[capture-diff] " + k + ": " + v));
        assertEquals(List.of(), mismatches);
        assertEquals(List.of(), problems);
        assertTrue(captured > 50, "the fast path is taken for most cases: " + captured);
        assertTrue(served > 50, "reads are served from tokens where proven: " + served);
    }

    @Test
    void shouldWriteTheValueAsItWasAtTheCall() throws Exception {
        JacksonCaptures captures = new JacksonCaptures(true, (k, m) -> { });
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Object> doc = new LinkedHashMap<>(Map.of("step", 1, "items", new ArrayList<>(List.of("a"))));
        byte[] atCall = mapper.writeValueAsBytes(doc);
        SnapshotContent content = captures.capture(mapper, doc, 64L << 20).content();
        assertInstanceOf(JacksonCapture.class, content);
        doc.put("step", 2);
        ((List<Object>) doc.get("items")).add("b");
        assertArrayEquals(atCall, content.encode());
    }

    @Test
    void shouldEncodeAtTheCallACaptureFarLargerThanItsText() throws Exception {
        JacksonCaptures captures = new JacksonCaptures(true, (k, m) -> { });
        ObjectMapper mapper = new ObjectMapper();
        double[] zeros = new double[300_000]; // "0.0," is 4 bytes of text; a token is a Double plus a slot
        SnapshotContent content = captures.capture(mapper, zeros, 1L << 40).content();
        assertInstanceOf(SnapshotContent.Bytes.class, content, () -> "heap " + content.heapBytes());
        assertArrayEquals(mapper.writeValueAsBytes(zeros), content.encode());
        SnapshotContent small = captures.capture(mapper, DiffCases.document(), 1L << 40).content();
        assertInstanceOf(JacksonCapture.class, small);
        assertTrue(small.heapBytes() > 1000 && small.heapBytes() < 20_000, "measured: " + small.heapBytes());
        assertInstanceOf(SnapshotContent.Bytes.class, captures.capture(mapper, DiffCases.document(), 4000).content(),
                "more than a quarter of the buffer's capacity: encoded at the call");
    }

    @Test
    void shouldNotCaptureWhenSwitchedOff() {
        JacksonCaptures captures = new JacksonCaptures(false, (k, m) -> { });
        assertNull(captures.capture(new ObjectMapper(), Map.of("a", 1), 64L << 20).content());
        assertNotNull(new JacksonCaptures(true, (k, m) -> { }).capture(new ObjectMapper(), Map.of("a", 1), 64L << 20).content());
    }

    static void write(Object caller, File f, Object value) throws Exception {
        if (caller instanceof ObjectMapper m) {
            m.writeValue(f, value);
        } else {
            ((ObjectWriter) caller).writeValue(f, value);
        }
    }
}
