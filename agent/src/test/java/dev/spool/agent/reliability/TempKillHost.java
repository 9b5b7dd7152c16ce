package dev.spool.agent.reliability;

import java.io.File;
import java.util.Map;

/**
 * Test host for the stale-temp kill loop (issue 36): two threads rewrite {@code docs} JSON files of
 * about 20 KB each with the host's own Jackson ({@code ObjectMapper.writeValue(File)}; {@link #state}
 * is the only content ever written), so the agent's flusher is writing temp files most of the
 * time. After each pass over its files a thread prints {@code round <thread> <version>}.
 * Usage: {@code TempKillHost <dir> <docs> [stop <versions>]}; runs until killed, or with
 * {@code stop} writes that many versions of each file and ends normally (nothing written during
 * the exit).
 */
public final class TempKillHost {
    static final int PAD = 20_000;

    /** The one content ever written for (doc, version). */
    public static Map<String, Object> state(int doc, int version) {
        return DocWriters.state(doc, version, PAD);
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int docs = Integer.parseInt(args[1]);
        dir.mkdirs();
        int versions = args.length > 3 && args[2].equals("stop") ? Integer.parseInt(args[3]) : Integer.MAX_VALUE;
        Thread[] writers = DocWriters.start(dir, docs, PAD, versions, (w, v) -> {
            synchronized (System.out) {
                System.out.println("round " + w + " " + v);
                System.out.flush();
            }
        });
        for (Thread t : writers) t.join();
        System.out.println("stopped");
    }
}
