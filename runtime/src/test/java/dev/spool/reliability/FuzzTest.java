package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.CorruptFileException;
import dev.spool.buffer.SharedBuffer;
import dev.spool.collections.SyncedMap;
import dev.spool.events.EventLog;
import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import dev.spool.events.ReadProblem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded random mutator (Jazzer is not available offline here) against the event-file reader and
 * the JSON loading path. Each run is time-bounded: {@code -Dspool.reliability.fuzz.millis} (default
 * 2500 per target), seed {@code -Dspool.reliability.seed} (printed, so a failure can be replayed).
 * Checked for every mutant: the reader throws nothing and reports damage as problems (good records
 * before each); {@code SyncedMap.open} either loads or raises {@link CorruptFileException} /
 * {@link IllegalStateException} naming the file; the file on disk is never changed.
 */
class FuzzTest {
    private static final long MILLIS = Long.getLong("spool.reliability.fuzz.millis", 2500);
    /** Mutants tried whatever the time: a loaded machine slows the loop, never shrinks the test. */
    private static final int MIN_RUNS = 200;
    private static final long SEED = Long.getLong("spool.reliability.seed", System.nanoTime());

    @TempDir
    Path dir;

    @Test
    void shouldReadEveryMutatedEventFileWithoutThrowingOrChangingIt() throws Exception {
        Path seedFile = dir.resolve("seed.spool");
        try (EventLog log = EventLog.open(seedFile)) {
            for (int i = 0; i < 40; i++) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("i", i);
                e.put("s", "text " + i + " \u00e9\u4e2d");
                e.put("d", i * 1.5);
                e.put("a", new double[] {i, -i, 0.25});
                e.put("n", i % 3 == 0 ? null : List.of(i, "x", true));
                log.emit(e);
            }
        }
        byte[] original = Files.readAllBytes(seedFile);
        Random r = new Random(SEED);
        Path file = dir.resolve("mutant.spool");
        long end = System.nanoTime() + MILLIS * 1_000_000;
        int runs = 0;
        while (runs < MIN_RUNS || System.nanoTime() < end) {
            byte[] m = mutate(original, r);
            Files.write(file, m);
            try (EventReader reader = EventReader.open(file)) {
                long records = 0;
                for (EventRecord rec : reader) {
                    rec.value();
                    records++;
                }
                for (ReadProblem p : reader.problems()) {
                    assertTrue(p.offset() >= 0 && p.offset() <= m.length, "problem offset out of the file: " + p);
                }
                assertTrue(records <= 40 + m.length / 32, "more records than bytes allow");
            } catch (Throwable t) {
                Files.write(dir.resolve("failing.spool"), m);
                fail("seed " + SEED + ", run " + runs + ": reader threw on a mutant: " + t, t);
            }
            assertArrayEquals(m, Files.readAllBytes(file), "the reader changed the file");
            runs++;
        }
        System.out.println("FuzzTest events: seed " + SEED + ", " + runs + " mutants");
    }

    @Test
    void shouldLoadOrRefuseEveryMutatedJsonFileNamingItAndNeverChangeIt() throws Exception {
        byte[] original = ("{\"name\":\"job-1\",\"step\":12,\"ratio\":0.5,\"big\":123456789012345678901234567890,"
                + "\"tags\":[\"a\",\"b\",{\"deep\":[1,2,[3,{\"x\":null}]]}],\"ok\":true,\"text\":\"\\u00e9\\n\\\"q\\\"\"}")
                .getBytes(StandardCharsets.UTF_8);
        Random r = new Random(SEED);
        long end = System.nanoTime() + MILLIS * 1_000_000;
        int runs = 0;
        int loaded = 0;
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            while (runs < MIN_RUNS || System.nanoTime() < end) {
                byte[] m = mutate(original, r);
                Path file = dir.resolve("doc-" + runs + ".json");
                Files.write(file, m);
                try {
                    SyncedMap map = SyncedMap.open(file, buffer);
                    map.size();
                    map.toString();
                    loaded++;
                } catch (CorruptFileException | IllegalStateException e) {
                    assertTrue(e.getMessage().contains(file.getFileName().toString()),
                            "seed " + SEED + ": error does not name the file: " + e.getMessage());
                } catch (Throwable t) {
                    fail("seed " + SEED + ", run " + runs + ": unexpected " + t + " for " + new String(m, StandardCharsets.ISO_8859_1), t);
                }
                assertArrayEquals(m, Files.readAllBytes(file), "loading changed " + file);
                Files.delete(file);
                runs++;
            }
        }
        System.out.println("FuzzTest json: seed " + SEED + ", " + runs + " mutants, " + loaded + " loaded");
    }

    /** One to four random edits: bit flip, byte set, delete a range, duplicate a range, truncate, insert junk. */
    static byte[] mutate(byte[] in, Random r) {
        List<Byte> b = new ArrayList<>(in.length + 16);
        for (byte x : in) b.add(x);
        int edits = 1 + r.nextInt(4);
        for (int e = 0; e < edits && !b.isEmpty(); e++) {
            int at = r.nextInt(b.size());
            switch (r.nextInt(6)) {
                case 0 -> b.set(at, (byte) (b.get(at) ^ (1 << r.nextInt(8))));
                case 1 -> b.set(at, (byte) (r.nextBoolean() ? r.nextInt(256) : new byte[] {0, -1, 0x7f, '"', '{', '[', '\\'}[r.nextInt(7)]));
                case 2 -> b.subList(at, Math.min(b.size(), at + 1 + r.nextInt(16))).clear();
                case 3 -> {
                    int len = Math.min(b.size() - at, 1 + r.nextInt(64));
                    b.addAll(r.nextInt(b.size() + 1), new ArrayList<>(b.subList(at, at + len)));
                }
                case 4 -> b.subList(at, b.size()).clear();
                default -> {
                    for (int k = r.nextInt(8); k >= 0; k--) b.add(at, (byte) r.nextInt(256));
                }
            }
        }
        byte[] out = new byte[b.size()];
        for (int i = 0; i < out.length; i++) out[i] = b.get(i);
        return out;
    }
}
