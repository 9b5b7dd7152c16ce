package dev.spool.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.spool.sink.SinkType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A forked JVM emitting from two threads is killed ({@code destroyForcibly}, SIGKILL) at a
 * random moment, repeatedly, for each back end. Afterwards: the reader returns a clean prefix
 * (each thread's events 0..k with no gap), every event the child reported as flushed is there,
 * every problem lies after the last good record (only the tail is torn), and a second writer can
 * append to the file (mmap zero padding is cut) after replaying what the killed writer's journal
 * held (the {@code file} back end; {@link AcknowledgedKillTest} checks those events).
 */
class CrashTest {
    private static final int KILLS_PER_BACK_END = 4;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SinkType.class)
    void shouldLeaveACleanPrefixWhenKilled(SinkType type) throws Exception {
        for (int round = 0; round < KILLS_PER_BACK_END; round++) {
            Path file = dir.resolve(type + "-" + round + ".spool");
            int[] flushed = runAndKill(file, type, 2 + round * 3);
            int[] count = new int[2];
            long lastGood = -1;
            try (EventReader r = EventReader.open(file)) {
                for (EventRecord rec : r) {
                    JsonNode v = rec.value();
                    int t = v.get("t").intValue();
                    assertEquals(count[t], v.get("i").intValue(), "thread " + t + " has a gap (round " + round + ")");
                    count[t]++;
                    lastGood = rec.offset();
                }
                for (ReadProblem p : r.problems()) {
                    assertTrue(p.offset() > lastGood, "damage before the tail: " + p);
                }
            }
            for (int t = 0; t < 2; t++) {
                assertTrue(count[t] > flushed[t], "thread " + t + " reported " + flushed[t]
                        + " flushed but only " + count[t] + " read (round " + round + ")");
            }
            long replayed;
            try (EventLog again = EventLog.open(file)) {
                replayed = again.metrics().recoveredAtOpen();   // the journal of the file back end (issue 33)
                again.emit("appended");
            }
            try (EventReader r = EventReader.open(file)) {
                List<JsonNode> all = new ArrayList<>();
                r.forEach(rec -> all.add(rec.value()));
                assertEquals("appended", all.get(all.size() - 1).textValue());
                assertEquals(count[0] + count[1] + replayed + 1, all.size());
            }
        }
    }

    /** Starts the child, waits for {@code flushLines} flush reports, kills it; returns the last flushed seq per thread. */
    private static int[] runAndKill(Path file, SinkType type, int flushLines) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
                file.toString(), type.name());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        int[] flushed = {-1, -1};
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            int seen = 0;
            String line;
            while (seen < flushLines && (line = in.readLine()) != null) {
                String[] w = line.split(" ");
                if (w.length == 3 && w[0].equals("flushed")) {
                    flushed[Integer.parseInt(w[1])] = Integer.parseInt(w[2]);
                    seen++;
                }
            }
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child did not die");
        } finally {
            p.destroyForcibly();
        }
        return flushed;
    }
}
