package dev.spool.kafka.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host program of the shipping tests (run in a forked JVM with the agent): emits
 * {@code count} events through {@link #emit}, an emitter method the agent routes to the event
 * file, at most {@code perSecond} per second (0: as fast as it can); prints
 * {@code emitted <n> in <ms> ms}; then, with {@code hold}, waits for a line {@code exit} on stdin
 * (or more emits: a number {@code n} emits n more; {@code spin} returns from main, so the JVM
 * exits, while a daemon thread goes on emitting, 2000 a second). Output on stdout, one line per step.
 */
public final class ShipHost {
    private ShipHost() {
    }

    /** Routed by the agent ({@code spool.events.methods=dev.spool.kafka.it.ShipHost#emit}). */
    public static void emit(Map<String, Object> event) {
        // without the agent: nothing
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int perSecond = Integer.parseInt(args[1]);
        boolean hold = args.length > 2 && args[2].equals("hold");
        int next = run(0, count, perSecond);
        if (!hold) {
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null && !line.trim().equals("exit"); ) {
            if (line.trim().equals("spin")) {
                // a daemon thread still emitting while the JVM exits (and Spool's exit hooks run)
                int from = next;
                Thread t = new Thread(() -> run(from, Integer.MAX_VALUE - from, 2000), "still-emitting");
                t.setDaemon(true);
                t.start();
                return;
            }
            next = run(next, Integer.parseInt(line.trim()), perSecond);
        }
        System.out.println("exiting");
    }

    private static int run(int from, int count, int perSecond) {
        long start = System.nanoTime();
        for (int i = from; i < from + count; i++) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("i", i);
            e.put("text", "event number " + i);
            e.put("values", new double[] {i, i / 2.0});
            emit(e);
            if (perSecond > 0) {
                long due = start + (long) (i - from + 1) * 1_000_000_000L / perSecond;
                for (long left; (left = due - System.nanoTime()) > 0; ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(left);
                }
            }
        }
        System.out.println("emitted " + (from + count) + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        System.out.flush();
        return from + count;
    }
}
