package dev.spool.agent.reliability;

import dev.spool.agent.it.Forked;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36: kill -9 ({@code destroyForcibly}) of a host with the agent while its flusher rewrites
 * 8 JSON files of ~20 KB every 1-20 ms with fsync ({@link TempKillHost}), the moment the test sees
 * the host's 1st-3rd temp file (polling the folder: the kill lands mid-flush, often inside a temp
 * file's life); {@code -Dspool.reliability.tempKills=N} times (default 8: ~22 s on the shared
 * 2-core machine; hundreds by hand), seeded by {@code -Dspool.reliability.seed}, all in the same
 * folder, so each restart meets the leftovers of the killed ones. After each kill every document is
 * whole (a state that was written), and every Spool temp file there is the killed host's own (it
 * had flushed, so its first pass had swept its predecessors' leftovers); they are counted (8 kills
 * leave some: asserted). Then a last host writes 20 versions of each file and ends normally (it
 * writes nothing during its exit, which would be a kill of its own writes): no Spool temp file is
 * left at all, every document is whole, and no other file appeared.
 */
class StaleTempKillIT {
    private static final int DOCS = 8;
    private static final Pattern TEMP = Pattern.compile("\\.doc-\\d+\\.json\\.spool-tmp-(\\d+)-\\d+-[0-9a-f]{8}-[0-9a-f]{16}");

    @TempDir
    Path dir;

    @Test
    void shouldLeaveNoSpoolTempFileAndOnlyWholeDocumentsWhenRestartedAfterKills() throws Exception {
        int kills = Integer.getInteger("spool.reliability.tempKills", 8);
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        Random random = new Random(seed);
        ObjectMapper mapper = new ObjectMapper();
        Path data = dir.resolve("data");
        int leftovers = 0;
        int roundsWithLeftovers = 0;
        for (int round = 0; round < kills; round++) {
            String where = "seed " + seed + ", round " + round;
            Forked host = Forked.start(dir.resolve("round-" + round), "host", Forked.agentArgs("spool.buffer.fsync=true,spool.buffer.flush.interval="
                    + (1 + random.nextInt(20))), Forked.hostClassPath(Forked.jackson()), TempKillHost.class.getName(),
                    data.toString(), "" + DOCS);
            try {
                awaitOwnTemp(host, data, 1 + random.nextInt(3));
            } finally {
                host.process.destroyForcibly();
                assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
            }
            List<String> temps = checkDocuments(mapper, data, where);
            String pid = Long.toString(host.pid());
            // the host was seen writing, so its first flush pass had swept the folder: only its own may be here
            assertEquals(List.of(), temps.stream().filter(t -> !owner(t).equals(pid)).toList(),
                    "temp files of earlier, killed hosts survived host " + pid + "'s flush (" + where + ")");
            leftovers += temps.size();
            if (!temps.isEmpty()) roundsWithLeftovers++;
        }
        Forked last = Forked.start(dir.resolve("last"), "host", Forked.agentArgs("spool.buffer.flush.interval=5"),
                Forked.hostClassPath(Forked.jackson()), TempKillHost.class.getName(), data.toString(), "" + DOCS, "stop", "20");
        assertEquals(0, last.await(), last.describe());
        assertTrue(last.out().contains("stopped"), last.describe());
        List<String> temps = checkDocuments(mapper, data, "seed " + seed + ", after the restart");
        System.out.println("StaleTempKillIT: seed " + seed + ", " + kills + " kills, " + leftovers + " temp files left by "
                + roundsWithLeftovers + " of them, " + temps.size() + " after the restart");
        assertEquals(List.of(), temps, "Spool temp files left after a restart (seed " + seed + ")");
        assertTrue(kills < 8 || leftovers > 0, "no kill left a temp file: nothing was proved (seed " + seed + ")");
    }

    /**
     * Waits until {@code host}'s flusher has been seen writing a temp file {@code times} times (each
     * a different one): the kill that follows lands mid-flush. Polls the folder every 0.2 ms, bounded.
     */
    private static void awaitOwnTemp(Forked host, Path data, int times) throws Exception {
        String pid = Long.toString(host.pid());
        java.util.Set<String> seen = new java.util.HashSet<>();
        long deadline = System.nanoTime() + Forked.TIMEOUT.toNanos();
        while (seen.size() < times) {
            if (!host.process.isAlive()) throw new AssertionError("host ended\n" + host.describe());
            if (System.nanoTime() > deadline) throw new AssertionError("no temp file of the host seen\n" + host.describe());
            if (Files.isDirectory(data)) {
                try (Stream<Path> files = Files.list(data)) {
                    files.map(f -> f.getFileName().toString()).map(TEMP::matcher)
                            .filter(m -> m.matches() && m.group(1).equals(pid)).forEach(m -> seen.add(m.group()));
                } catch (java.io.UncheckedIOException | java.io.IOException listedWhileRenamed) {
                    // a name went away during the listing: look again
                }
            }
            if (seen.size() < times) java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
    }

    private static String owner(String tempName) {
        Matcher m = TEMP.matcher(tempName);
        assertTrue(m.matches(), tempName);
        return m.group(1);
    }

    /** Asserts every file is a whole document or a Spool temp file; returns the temp files' names. */
    private static List<String> checkDocuments(ObjectMapper mapper, Path data, String where) throws Exception {
        List<String> temps = new ArrayList<>();
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                Matcher m = TEMP.matcher(name);
                if (m.matches()) {
                    temps.add(name);
                    continue;
                }
                assertTrue(name.matches("doc-\\d+\\.json"), "unexpected file " + name + " (" + where + ")");
                assertTrue(Files.size(f) > 0, name + " is empty (" + where + ")");
                @SuppressWarnings("unchecked")
                Map<String, Object> doc = mapper.readValue(f.toFile(), Map.class);
                assertEquals(TempKillHost.state((Integer) doc.get("doc"), (Integer) doc.get("version")), doc,
                        name + " is not a state that was written (" + where + ")");
            }
        }
        return temps;
    }
}
