package dev.spool.agent.reliability;

import java.io.File;
import java.util.Map;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for kill -9 runs: two threads rewrite {@code docs} JSON files with the host's own
 * Jackson ({@link #state} is the only content ever written), two threads log numbered lines
 * ({@code t<thread> <seq>}) through a JUL FileHandler; after each {@code FileHandler.flush()} the
 * logger prints {@code flushed <thread> <seq>}: every line up to it must survive a kill.
 * Usage: {@code KillHost <dir> <docs> <log file name> [exit <millis>]}; runs until killed, or calls
 * {@code System.exit(0)} after {@code millis} while the writers keep writing.
 */
public final class KillHost {
    static final int PAD = 300;

    /** The one content ever written for (doc, version). */
    public static Map<String, Object> state(int doc, int version) {
        return DocWriters.state(doc, version, PAD);
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int docs = Integer.parseInt(args[1]);
        dir.mkdirs();
        System.setProperty("java.util.logging.SimpleFormatter.format", "%5$s%n");
        FileHandler handler = new FileHandler(new File(dir, args[2]).getPath(), true);
        handler.setFormatter(new SimpleFormatter());
        Logger log = Logger.getLogger("kill");
        log.setUseParentHandlers(false);
        log.addHandler(handler);
        log.setLevel(Level.INFO);
        DocWriters.start(dir, docs, PAD, Integer.MAX_VALUE, (w, v) -> { });
        for (int l = 0; l < 2; l++) {
            int thread = l;
            new Thread(() -> {
                for (int seq = 0; ; seq++) {
                    log.info("t" + thread + " " + seq);
                    if (seq % 2000 == 1999) {
                        handler.flush();
                        synchronized (System.out) {
                            System.out.println("flushed " + thread + " " + seq);
                            System.out.flush();
                        }
                    }
                }
            }, "logger-" + l).start();
        }
        if (args.length > 3 && args[3].equals("exit")) {
            Thread.sleep(Long.parseLong(args[4])); // the moment of exit is the point, not a wait for a condition
            System.exit(0);                        // a normal exit while the writers keep writing
        }
    }
}
