package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.spool.sink.JournalLayout;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: a SIGKILL ({@code destroyForcibly}) loses no acknowledged event. A forked JVM
 * ({@link AckKillChild}) emits from two threads at the defaults and records each event's seq
 * after {@code emit} returned; it is killed at a random moment, {@code -Dspool.reliability.kills=N}
 * times (default 10), each round's child appending to the same file (so it replays the journal
 * the previous kill left). After each kill, the file is opened once more (recovery) and read:
 * every acknowledged event is there, once, in order per thread, and the file is sound.
 * Seeded by {@code -Dspool.reliability.seed}. The {@code mmap} back end runs the same loop with fewer
 * kills per build ({@code -Dspool.reliability.mmapKills=N}, default 4); its checking open is an
 * {@code mmap} open too, so recovery meets the zero padding a killed mmap writer leaves.
 */
class AcknowledgedKillTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepEveryAcknowledgedEventWhenKilledAtTheDefaults() throws Exception {
        killLoop(SinkType.FILE, false, Integer.getInteger("spool.reliability.kills", 6));
    }

    @Test
    void shouldKeepEveryAcknowledgedSplitRecordWhenKilled() throws Exception {
        killLoop(SinkType.FILE, true, Integer.getInteger("spool.reliability.kills", 6));
    }

    @Test
    void shouldKeepEveryAcknowledgedEventOnTheMmapBackEndWhenKilled() throws Exception {
        killLoop(SinkType.MMAP, false, Integer.getInteger("spool.reliability.mmapKills", 3));
    }

    private void killLoop(SinkType type, boolean split, int kills) throws Exception {
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        Random random = new Random(seed);
        Path file = dir.resolve("events.spool");
        Map<String, Long> lastSeen = new HashMap<>();
        long lost = 0;
        long recovered = 0;
        long ackedTotal = 0;
        StringBuilder report = new StringBuilder();
        StringBuilder damaged = new StringBuilder();
        for (int round = 0; round < kills; round++) {
            long[] acked = runAndKill(file, round, type, split, 50 + random.nextInt(700));
            try (EventLog recovering = EventLog.open(file, SinkSettings.builder().type(type).build())) {   // replays what the kill left
                recovered += recovering.metrics().recoveredAtOpen();
            }
            assertFalse(Files.exists(JournalLayout.journalOf(file)), "a closed log leaves no journal");
            long[] seen = {-1, -1};
            try (EventReader r = EventReader.open(file)) {
                for (EventRecord rec : r) {
                    JsonNode v = rec.value();
                    if (v.get("r").intValue() != round) {
                        continue;
                    }
                    int t = v.get("t").intValue();
                    long i = v.get("i").longValue();
                    assertEquals(seen[t] + 1, i, "seed " + seed + " round " + round + " thread " + t
                            + ": event out of order, duplicated or missing");
                    seen[t] = i;
                }
                for (ReadProblem problem : r.problems()) {   // a split record the kill cut short was not acknowledged
                    if (!split || problem.kind() != ReadProblem.Kind.INCOMPLETE) {
                        damaged.append(" round ").append(round).append(": ").append(problem);
                    }
                }
            }
            for (int t = 0; t < 2; t++) {
                ackedTotal += acked[t] + 1;
                if (seen[t] < acked[t]) {
                    lost += acked[t] - seen[t];
                    report.append(" round ").append(round).append(" t").append(t).append(": acked ")
                            .append(acked[t]).append(", on file ").append(seen[t]);
                }
            }
        }
        System.out.println("AcknowledgedKillTest " + type + (split ? " split" : "") + ": " + kills + " kills, "
                + ackedTotal + " events acknowledged, " + lost + " lost, " + recovered + " frames replayed by the checking open");
        assertEquals("", damaged.toString(), "seed " + seed + ": file not sound (" + lost + " acknowledged events lost)");
        assertEquals(0, lost, "seed " + seed + ": acknowledged events lost:" + report);
    }

    /** Starts the child, waits for it to emit, kills it after {@code millis}; returns the last acknowledged seq per thread. */
    private long[] runAndKill(Path file, int round, SinkType type, boolean split, int millis) throws Exception {
        Path acks = dir.resolve("acks-" + round);
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), AckKillChild.class.getName(),
                file.toString(), acks.toString(), "" + round, type.name(), split ? "split" : "whole");
        pb.redirectError(dir.resolve("child-" + round + ".err").toFile());
        Process p = pb.start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.equals("started")) {
                // wait until both threads emit
            }
            assertEquals("started", line, "child ended early: " + Files.readString(dir.resolve("child-" + round + ".err")));
            p.waitFor(millis, TimeUnit.MILLISECONDS);
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not die");
        } finally {
            p.destroyForcibly();
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(acks)).order(ByteOrder.BIG_ENDIAN);
        return new long[] {b.getLong(0), b.getLong(8)};
    }
}
