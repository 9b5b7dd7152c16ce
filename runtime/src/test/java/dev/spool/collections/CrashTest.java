package dev.spool.collections;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.buffer.AtomicFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 ({@link Process#destroyForcibly()}) of a JVM flushing in a loop, at random moments,
 * many times over the same folder. After every kill, and while the writer runs, each file parses
 * and equals one of the states the writer wrote; nothing but data files and recognisable temp
 * files is left.
 */
class CrashTest {
    static final int KILLS = 16;
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Process start(String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"),
                CrashWriter.class.getName(), dir.toString()));
        cmd.addAll(List.of(extra));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    @Test
    void shouldLeaveEveryFileWholeAfterRandomKills() throws Exception {
        Random random = new Random();
        long seed = random.nextLong();
        random.setSeed(seed);
        int leftoverTemps = 0;
        boolean everFlushed = false;
        for (int kill = 0; kill < KILLS; kill++) {
            Process p = start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                int flushesBeforeKill = 1 + random.nextInt(kill % 3 == 0 ? 3 : 40);
                for (int seen = 0; seen < flushesBeforeKill; ) {
                    String line = out.readLine();
                    assertNotNull(line, "writer died on its own (seed " + seed + ")");
                    if (line.startsWith("flushed")) seen++;
                    else fail("writer said: " + line + " (seed " + seed + ")");
                    verify(false, seed); // readers while it runs see whole files too
                }
                everFlushed = true;
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(3000))); // a random moment
                p.destroyForcibly();
                assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            } finally {
                p.destroyForcibly();
            }
            leftoverTemps += verify(everFlushed, seed);
        }
        System.out.println("CrashTest: " + KILLS + " kills, " + leftoverTemps + " leftover temp file(s) seen, seed " + seed);
    }

    private int verify(boolean mustExist, long seed) throws IOException {
        int temps = 0;
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.toList();
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (AtomicFiles.isTempFile(f)) {
                assertFalse(name.endsWith(".json"), "a temp file that looks like data: " + name);
                temps++;
                continue;
            }
            assertTrue(name.matches("(map|snap)-\\d\\.json"), "unexpected file " + name + " (seed " + seed + ")");
            if (name.startsWith("map-")) {
                Map<?, ?> m = JSON.readValue(f.toFile(), Map.class);
                int r = (Integer) m.get("round");
                int i = (Integer) m.get("file");
                assertEquals(CrashWriter.mapState(r, i), m, name + " is not a state that was written (seed " + seed + ")");
            } else {
                String content = Files.readString(f);
                Map<?, ?> m = JSON.readValue(content, Map.class);
                assertEquals(CrashWriter.snapshotState((Integer) m.get("round"), (Integer) m.get("file")), content);
            }
        }
        if (mustExist) {
            for (int i = 0; i < CrashWriter.MAPS; i++) assertTrue(Files.exists(dir.resolve("map-" + i + ".json")));
            for (int i = 0; i < CrashWriter.SNAPSHOTS; i++) assertTrue(Files.exists(dir.resolve("snap-" + i + ".json")));
        }
        return temps;
    }

    @Test
    void shouldFlushTheGlobalBufferAtNormalExit() throws Exception {
        Process p = start("exit");
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals("{\"exit\":true}", Files.readString(dir.resolve("at-exit.json")));
    }
}
