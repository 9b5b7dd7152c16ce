package dev.spool.kafka.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shipping figures for docs/BENCHMARKS.md, against the real local broker; not part of the build
 * (the name matches no test pattern). Run:
 * {@code smvn -B verify -pl kafka -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ShippingBench}
 * and read {@code kafka/target/failsafe-reports/dev.spool.kafka.it.ShippingBench-output.txt}.
 * No assertions on time: it prints what it measured.
 */
class ShippingBench {
    static Broker broker;
    private static final Pattern EMITTED = Pattern.compile("emitted (\\d+) in (\\d+) ms");

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    /** Events per second shipped (full speed, a backlog of n) and the lag at a steady emit rate. */
    @Test
    void shippedPerSecondAndSteadyLag() throws Exception {
        Path dir = tempDir("spool-bench");
        Path events = dir.resolve("events.spool");
        int n = 100_000;
        try (Host host = Host.ship(dir, "backlog", ShippingIT.agentOptions(events, "bench-backlog", "spool.kafka.close.timeout=1000"),
                List.of(), null, String.valueOf(n), "0", "hold");
             Jmx jmx = Jmx.connect(host.process.pid())) {
            ObjectName s = Jmx.shipper(events);
            host.awaitCondition("the shipper", () -> registered(jmx, s));
            long t0 = System.nanoTime();
            long first = jmx.getLong(s, "Shipped");
            host.awaitCondition("all shipped", () -> shipped(jmx, s) >= n);
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("backlog: %d events (%d already shipped at t0) shipped in %.2f s = %.0f events/s%n",
                    n, first, secs, (n - first) / secs);
            host.say("exit");
            host.await(60);
        }
        int rate = 10_000;
        int seconds = 20;
        try (Host host = Host.ship(dir, "steady", ShippingIT.agentOptions(dir.resolve("steady.spool"), "bench-steady",
                        "spool.kafka.close.timeout=1000"), List.of(), null, String.valueOf(rate * seconds), String.valueOf(rate), "hold");
             Jmx jmx = Jmx.connect(host.process.pid())) {
            ObjectName s = Jmx.shipper(dir.resolve("steady.spool"));
            host.awaitCondition("the shipper", () -> registered(jmx, s));
            List<Long> lagRecords = new ArrayList<>();
            List<Long> lagBytes = new ArrayList<>();
            while (!host.out().contains("emitted")) {
                lagRecords.add(jmx.getLong(s, "LagRecords"));
                lagBytes.add(jmx.getLong(s, "LagBytes"));
                TimeUnit.MILLISECONDS.sleep(100); // sampling period of the measurement, not a wait for a condition
            }
            // the second half only: the first seconds carry the backlog of the shipper's start (JMX-safe delay, jar, connect)
            lagRecords = new ArrayList<>(lagRecords.subList(lagRecords.size() / 2, lagRecords.size()));
            lagBytes = new ArrayList<>(lagBytes.subList(lagBytes.size() / 2, lagBytes.size()));
            Collections.sort(lagRecords);
            Collections.sort(lagBytes);
            System.out.printf("steady %d events/s for %d s, second half: LagRecords median %d, p99 %d, max %d; LagBytes median %d, max %d (%d samples)%n",
                    rate, seconds, pct(lagRecords, 50), pct(lagRecords, 99), lagRecords.get(lagRecords.size() - 1),
                    pct(lagBytes, 50), lagBytes.get(lagBytes.size() - 1), lagRecords.size());
            host.say("exit");
            host.await(60);
        }
    }

    /** The application thread's cost per event, shipping on and off, alternating runs. */
    @Test
    void callerCostWithShippingOnAndOff() throws Exception {
        Path dir = tempDir("spool-bench-cost");
        int n = 200_000;
        List<Double> on = new ArrayList<>();
        List<Double> off = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (boolean ship : new boolean[] {round % 2 == 0, round % 2 != 0}) {
                Path events = dir.resolve("cost-" + round + "-" + ship + ".spool");
                String opts = ship ? ShippingIT.agentOptions(events, "bench-cost", "spool.kafka.close.timeout=0")
                        : "spool.events.methods=" + ShipHost.class.getName() + "#emit,spool.events.file=" + events;
                // warm-up inside the same JVM: 50,000 events first, then the measured n ("emitted" twice)
                try (Host host = Host.ship(dir, "cost-" + round + "-" + ship, opts, List.of(), null, "50000", "0", "hold")) {
                    host.awaitOutput("emitted 50000");
                    host.say(String.valueOf(n));
                    host.awaitOutput("emitted " + (50000 + n));
                    Matcher m = EMITTED.matcher(host.out());
                    long ms = 0;
                    while (m.find()) {
                        ms = Long.parseLong(m.group(2));
                    }
                    (ship ? on : off).add(ms * 1e6 / n);
                    host.say("exit");
                    host.await(60);
                }
            }
        }
        System.out.printf("caller ns/event, shipping off: %s%n", off);
        System.out.printf("caller ns/event, shipping on:  %s%n", on);
        System.out.printf("median off %.0f ns, on %.0f ns, on/off %.2f%n", median(off), median(on), median(on) / median(off));
    }

    /** A temp folder deleted when the JVM ends (hosts' event files, checkpoints and logs). */
    static Path tempDir(String prefix) throws java.io.IOException {
        Path dir = Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Broker.deleteTree(dir)));
        return dir;
    }

    private static boolean registered(Jmx jmx, ObjectName s) {
        try {
            return jmx.registered(s);
        } catch (Exception e) {
            return false;
        }
    }

    private static long shipped(Jmx jmx, ObjectName s) {
        try {
            return jmx.getLong(s, "Shipped");
        } catch (Exception e) {
            return -1;
        }
    }

    private static long pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
    }
}
