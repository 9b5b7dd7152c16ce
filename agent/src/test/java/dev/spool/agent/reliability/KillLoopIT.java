package dev.spool.agent.reliability;

import dev.spool.agent.it.Forked;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 ({@code destroyForcibly}) of a host running the agent, at a random moment during heavy
 * buffered Jackson writes and heavy JUL logging; repeated {@code -Dspool.reliability.kills=N}
 * times (default 10: about 40 s on the shared 2-core machine), seeded by {@code -Dspool.reliability.seed}. After each kill: every JSON file
 * parses and equals a state that was written; the log's complete lines are, per thread, a gap-free
 * sequence with at most the last line torn; every line the host's {@code FileHandler.flush()} saw
 * completed is there; only data files, the logs (with the JUL journal a kill leaves) and Spool temp files remain. The next round runs in the same folder (on top of the leftovers).
 */
class KillLoopIT {
    private static final int DOCS = 8;

    @TempDir
    Path dir;

    @Test
    void shouldLeaveOnlyWholeFilesAndEveryFlushedLineWhenKilledAtRandom() throws Exception {
        int kills = Integer.getInteger("spool.reliability.kills", 10);
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        Random random = new Random(seed);
        ObjectMapper mapper = new ObjectMapper();
        Path data = dir.resolve("data");
        for (int round = 0; round < kills; round++) {
            String where = "seed " + seed + ", round " + round;
            Path log = Files.createDirectories(dir.resolve("round-" + round));
            int waitFlushes = 1 + random.nextInt(4);
            Forked host = Forked.start(log, "host", List.of("-javaagent:" + Forked.agentJar() + "=spool.buffer.flush.interval="
                    + (1 + random.nextInt(50))), Forked.hostClassPath(Forked.jackson()), KillHost.class.getName(), data.toString(), "" + DOCS, "host-" + round + ".log");
            long[] flushed = {-1, -1};
            try {
                host.awaitLines("flushed ", waitFlushes);
                for (String l : host.out().split("\n")) {
                    String[] w = l.split(" ");
                    if (w.length == 3 && w[0].equals("flushed")) flushed[Integer.parseInt(w[1])] = Long.parseLong(w[2]);
                }
            } finally {
                host.process.destroyForcibly();
                assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
            }
            checkJson(mapper, data, where);
            checkLog(data.resolve("host-" + round + ".log"), flushed, where);
        }
    }

    /**
     * A normal exit ({@code System.exit} from another thread) while the writer threads keep
     * writing JSON: afterwards every file is a whole state that was written, and no conflict file
     * appears (nobody but the host wrote). Rounds: {@code -Dspool.reliability.exits=N} (default 3).
     */
    @Test
    void shouldLeaveOnlyWholeFilesAndNoConflictWhenTheHostExitsWhileWriting() throws Exception {
        int exits = Integer.getInteger("spool.reliability.exits", 3);
        ObjectMapper mapper = new ObjectMapper();
        for (int round = 0; round < exits; round++) {
            Path data = dir.resolve("exit-" + round);
            Path d = Files.createDirectories(dir.resolve("exit-run-" + round));
            Forked host = Forked.start(d, "host", List.of("-javaagent:" + Forked.agentJar()), Forked.hostClassPath(Forked.jackson()),
                    KillHost.class.getName(), data.toString(), "" + DOCS, "host-0.log", "exit", "" + (300 + 200 * round));
            assertTrue(host.process.waitFor(60, TimeUnit.SECONDS), "host did not exit");
            assertEquals(0, host.process.exitValue(), Files.readString(host.stderr));
            checkJson(mapper, data, "exit round " + round);
        }
    }

    private static void checkJson(ObjectMapper mapper, Path data, String where) throws Exception {
        try (Stream<Path> files = Files.list(data)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.matches("host-\\d+\\.log(\\.lck|\\.spool-journal)?")) continue; // the journal a kill leaves (issue 33)
                if (name.contains(".spool-tmp-")) continue; // a temp file a kill left between create and rename
                assertTrue(Files.size(f) > 0, name + " is empty (" + where + ")");
                assertTrue(name.matches("doc-\\d+\\.json"), "unexpected file " + name + " (" + where + ")");
                @SuppressWarnings("unchecked")
                Map<String, Object> m = mapper.readValue(f.toFile(), Map.class);
                int doc = (Integer) m.get("doc");
                int version = (Integer) m.get("version");
                assertEquals(KillHost.state(doc, version), m, name + " is not a state that was written (" + where + ")");
            }
        }
    }

    private static void checkLog(Path log, long[] flushed, String where) throws Exception {
        String text = Files.readString(log, StandardCharsets.UTF_8);
        long[] next = new long[2];
        int end = text.lastIndexOf('\n');
        List<String> lines = end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
        for (String line : lines) {
            String[] w = line.split(" ");
            assertTrue(w.length == 2 && w[0].matches("t[01]"), "torn or foreign line '" + line + "' (" + where + ")");
            int t = w[0].charAt(1) - '0';
            long seq = Long.parseLong(w[1]);
            assertEquals(next[t], seq, "gap in thread " + t + " (" + where + ")");
            next[t] = seq + 1;
        }
        for (int t = 0; t < 2; t++) {
            assertTrue(next[t] > flushed[t], "thread " + t + ": flushed " + flushed[t] + " but only " + next[t]
                    + " lines on disk (" + where + ")");
        }
    }
}
