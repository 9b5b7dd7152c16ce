package dev.spool.agent.reliability;

import java.io.File;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.logging.FileHandler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host for shutdown races: {@code threads} threads log numbered lines ({@code t<i> <seq>})
 * through a JUL FileHandler; once each has logged 5000, three of them call {@code System.exit(0)}
 * at once while the rest keep logging. The first of them prints, just before its exit call, for each
 * thread the last sequence number whose {@code log.info} had returned ({@code returned <t> <seq>});
 * an application shutdown hook logs {@code hook}. Usage: {@code ShutdownRaceHost <log> <threads>}.
 */
public final class ShutdownRaceHost {
    public static void main(String[] args) throws Exception {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%5$s%n");
        FileHandler handler = new FileHandler(new File(args[0]).getPath(), true);
        handler.setFormatter(new SimpleFormatter());
        Logger log = Logger.getLogger("race");
        log.setUseParentHandlers(false);
        log.addHandler(handler);
        int threads = Integer.parseInt(args[1]);
        AtomicLongArray returned = new AtomicLongArray(threads);
        for (int t = 0; t < threads; t++) returned.set(t, -1);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> log.info("hook")));
        for (int t = 0; t < threads; t++) {
            int me = t;
            new Thread(() -> {
                for (long seq = 0; ; seq++) {
                    log.info("t" + me + " " + seq);
                    returned.set(me, seq);
                    if (seq == 5000 && me < 3) {
                        if (first.compareAndSet(false, true)) {
                            StringBuilder sb = new StringBuilder();
                            for (int k = 0; k < threads; k++) {
                                sb.append("returned ").append(k).append(' ').append(returned.get(k)).append('\n');
                            }
                            System.out.print(sb);
                            System.out.flush();
                        }
                        System.exit(0);
                    }
                }
            }, "log-" + t).start();
        }
    }
}
