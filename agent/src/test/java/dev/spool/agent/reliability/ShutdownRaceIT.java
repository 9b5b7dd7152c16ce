package dev.spool.agent.reliability;

import dev.spool.agent.it.Forked;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * System.exit from three threads at once while eight threads log through a routed JUL FileHandler,
 * racing JUL's own shutdown hook (which closes handlers) and an application shutdown hook. After
 * exit, every line whose log call had returned when shutdown began is in the file, each thread's
 * lines are a gap-free sequence and no line is torn. Repeated {@code -Dspool.reliability.races=N}
 * times (default 3).
 */
class ShutdownRaceIT {
    private static final int THREADS = 8;

    @TempDir
    Path dir;

    @Test
    void shouldHaveEveryLineLoggedBeforeExitOnDisk() throws Exception {
        int races = Integer.getInteger("spool.reliability.races", 3);
        for (int round = 0; round < races; round++) {
            Path d = Files.createDirectories(dir.resolve("r" + round));
            Path logFile = d.resolve("race.log");
            Forked host = Forked.start(d, "host", List.of("-javaagent:" + Forked.agentJar()),
                    Forked.hostClassPath(Forked.jackson()), ShutdownRaceHost.class.getName(), logFile.toString(), "" + THREADS);
            assertTrue(host.process.waitFor(60, TimeUnit.SECONDS), "host did not exit (round " + round + ")");
            String out = host.out();
            assertEquals(0, host.process.exitValue(), out + Files.readString(host.stderr));
            long[] returned = new long[THREADS];
            int seen = 0;
            for (String l : out.split("\n")) {
                String[] w = l.split(" ");
                if (w.length == 3 && w[0].equals("returned")) {
                    returned[Integer.parseInt(w[1])] = Long.parseLong(w[2]);
                    seen++;
                }
            }
            assertEquals(THREADS, seen, "the host's hook did not report: " + out);
            long[] next = new long[THREADS];
            String text = Files.readString(logFile, StandardCharsets.UTF_8);
            assertTrue(text.isEmpty() || text.endsWith("\n"), "torn last line (round " + round + ")");
            for (String line : text.split("\n")) {
                if (line.isEmpty() || line.equals("hook")) continue;
                String[] w = line.split(" ");
                assertTrue(w.length == 2 && w[0].startsWith("t"), "torn line '" + line + "' (round " + round + ")");
                int t = Integer.parseInt(w[0].substring(1));
                assertEquals(next[t], Long.parseLong(w[1]), "gap in thread " + t + " (round " + round + ")");
                next[t]++;
            }
            for (int t = 0; t < THREADS; t++) {
                assertTrue(next[t] > returned[t], "thread " + t + ": line " + returned[t]
                        + " had been logged before exit but only " + next[t] + " are on disk (round " + round + ")");
            }
        }
    }
}
