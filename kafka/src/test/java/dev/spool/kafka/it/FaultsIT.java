package dev.spool.kafka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promised outcome of each fault, against the real broker: broker not up when the host
 * starts; broker stopped mid-run and restarted; host SIGKILLed mid-ship and restarted; a slow
 * (throttled) broker; a bad producer setting; the bounded wait at exit. Each test leaves the
 * broker running and unthrottled.
 */
class FaultsIT {
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    @AfterEach
    void brokerBack() throws Exception {
        Broker.shared();
    }

    private static String options(Path events, String topic, String extra) {
        return ShippingIT.agentOptions(events, topic, extra);
    }

    /** Every ordinal 0..n-1 present; each duplicate at or after {@code firstUnacked}; first occurrences in order. */
    private static void assertAtLeastOnceInOrder(List<Topic.Rec> recs, long n, long firstUnacked) {
        List<Long> distinct = Topic.distinctOrdinals(recs);
        assertEquals(n, distinct.size(), "every event arrived");
        for (int i = 0; i < distinct.size(); i++) {
            assertEquals(i, distinct.get(i), "first occurrences in file order");
        }
        Set<Long> seen = new TreeSet<>();
        for (Topic.Rec r : recs) {
            if (!seen.add(r.ordinal())) {
                assertTrue(r.ordinal() >= firstUnacked, "duplicate " + r.key() + " from before the unacknowledged window "
                        + firstUnacked);
            }
        }
        assertEquals(1, recs.stream().map(Topic.Rec::stream).distinct().count(), "one stream id");
    }

    @Test
    void shouldStartAtFullSpeedAndShipOnceTheBrokerComesUp(@TempDir Path dir) throws Exception {
        broker.stop();
        Path events = dir.resolve("events.spool");
        try (Host host = Host.ship(dir, "host", options(events, "late-broker", "spool.kafka.close.timeout=60000"),
                List.of(), null, "500", "0", "hold")) {
            host.awaitOutput("emitted 500");
            assertTrue(host.process.isAlive());
            broker.start();
            List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "late-broker", 500);
            assertAtLeastOnceInOrder(recs, 500, 0);
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
            assertFalse(host.err().contains("[spool]"), "a broker that is down is not an error line\n" + host.describe());
        }
    }

    @Test
    void shouldCatchUpWhenTheBrokerIsStoppedMidRunAndRestarted(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        try (Host host = Host.ship(dir, "host", options(events, "restart-mid-run", "spool.kafka.close.timeout=60000"),
                List.of(), null, "1500", "300", "hold")) {
            Topic.awaitCount(broker.bootstrap(), "restart-mid-run", 50);
            broker.stop();
            host.awaitOutput("emitted 1500");
            broker.start();
            List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "restart-mid-run", 1500);
            assertAtLeastOnceInOrder(recs, 1500, 0);
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
        }
    }

    @Test
    void shouldResumeAfterTheHostIsKilledMidShipLosingNothing(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        Path checkpoint = dir.resolve("events.spool.kafka-killed.checkpoint");
        long acked;
        try (Host host = Host.ship(dir, "host", options(events, "killed", ""), List.of(), null, "20000", "0", "hold")) {
            host.awaitCondition("a checkpoint", () -> Files.exists(checkpoint));
            host.process.destroyForcibly().waitFor(60, TimeUnit.SECONDS); // SIGKILL, mid-ship
            acked = new ObjectMapper().readTree(checkpoint.toFile()).get("ordinal").asLong();
        }
        long inFile = ShippingIT.catLines(dir, events).size();
        assertTrue(inFile > 0);
        // restarted: the host emits nothing new; its exit ships the rest from the checkpoint
        try (Host again = Host.ship(dir, "again", options(events, "killed", "spool.kafka.close.timeout=60000"),
                List.of(), null, "0", "0")) {
            assertEquals(0, again.await(180), again.describe());
        }
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "killed", (int) inFile);
        assertAtLeastOnceInOrder(recs, inFile, acked);
        JsonNode cp = new ObjectMapper().readTree(checkpoint.toFile());
        assertEquals(inFile, cp.get("ordinal").asLong(), "the checkpoint is at the end");
    }

    @Test
    void shouldLeaveTheHostAtFullSpeedWithBoundedMemoryWhenTheBrokerIsSlow(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        ClientQuotaEntity everyone = new ClientQuotaEntity(java.util.Collections.singletonMap(ClientQuotaEntity.CLIENT_ID, null));
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(everyone,
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 20_000.0))))).all().get();
        }
        try (Host host = Host.ship(dir, "host", options(events, "slow", "spool.kafka.close.timeout=1000"),
                List.of(), null, "30000", "0", "hold")) {
            host.awaitOutput("emitted 30000");
            ObjectName shipper = Jmx.shipper(events);
            try (Jmx jmx = Jmx.connect(host.process.pid())) {
                host.awaitCondition("a Shipper MBean", () -> {
                    try {
                        return jmx.registered(shipper) && jmx.getLong(shipper, "Shipped") > 0;
                    } catch (Exception e) {
                        return false;
                    }
                });
                long shipped = jmx.getLong(shipper, "Shipped");
                assertTrue(shipped < 30000, "the host finished emitting long before the slow broker took it all: " + shipped);
                assertTrue(jmx.getLong(shipper, "InFlightRecords") <= 10_000, "read-ahead is bounded");
                assertTrue(jmx.getLong(shipper, "LagBytes") > 0);
                // LagRecords counts what is not read yet too: with the host done, lag + shipped reaches all 30,000
                host.awaitCondition("LagRecords counting the unread records", () -> {
                    try {
                        long lag = jmx.getLong(shipper, "LagRecords");
                        long after = jmx.getLong(shipper, "Shipped");
                        assertTrue(lag <= 30000 - shipped, "never more than the file holds: " + lag);
                        return lag + after >= 30000;
                    } catch (AssertionError e) {
                        throw e;
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
        } finally {
            try (Admin admin = broker.admin()) {
                admin.alterClientQuotas(List.of(new ClientQuotaAlteration(everyone,
                        List.of(new ClientQuotaAlteration.Op("producer_byte_rate", null))))).all().get();
            }
        }
    }

    @Test
    void shouldReportABadProducerSettingInOneLineAndRunOn(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        try (Host host = Host.ship(dir, "host", options(events, "bad-setting", "spool.kafka.acks=sometimes"),
                List.of(), null, "300", "0")) {
            assertEquals(0, host.await(120), host.describe());
            assertTrue(host.out().contains("emitted 300"));
            List<String> lines = host.err().lines().filter(l -> l.contains("[spool]")).collect(Collectors.toList());
            assertEquals(1, lines.size(), host.describe());
            assertTrue(lines.get(0).contains("acks") && lines.get(0).contains("off"), lines.get(0));
        }
        assertEquals(300, ShippingIT.catLines(dir, events).size(), "the events are in the file");
    }

    @Test
    void shouldWaitAtMostTheCloseTimeoutAtExitAndLeaveTheRestForShip(@TempDir Path dir) throws Exception {
        broker.stop();
        Path events = dir.resolve("events.spool");
        long start;
        long took;
        try (Host host = Host.ship(dir, "host", options(events, "exit-bound", "spool.kafka.close.timeout=3000"),
                List.of(), null, "200", "0", "hold")) {
            host.awaitOutput("emitted 200");
            start = System.nanoTime();
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
            took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        // the bound: 3 s plus one second for closing the producer, plus the JVM's own exit (generous: loaded machine)
        assertTrue(took < 3000 + 1000 + 10_000, "exit took " + took + " ms");
        broker.start();
        try (Host ship = Host.cli(dir, "ship", "ship", "--bootstrap", broker.bootstrap(), "--topic", "exit-bound",
                events.toString())) {
            assertEquals(0, ship.await(180), ship.describe());
        }
        assertAtLeastOnceInOrder(Topic.read(broker.bootstrap(), "exit-bound", 200), 200, 0);
    }

    @Test
    void shouldPauseAndResumeFromJmx(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        try (Host host = Host.ship(dir, "host", options(events, "paused", "spool.kafka.close.timeout=60000"),
                List.of(), null, "100", "0", "hold")) {
            host.awaitOutput("emitted 100");
            Jmx jmx = Jmx.connect(host.process.pid());
            ObjectName shipper = Jmx.shipper(events);
            host.awaitCondition("100 shipped", () -> {
                try {
                    return jmx.registered(shipper) && jmx.getLong(shipper, "Shipped") == 100;
                } catch (Exception e) {
                    return false;
                }
            });
            assertEquals(Boolean.TRUE, jmx.get(shipper, "Connected"));
            assertTrue(jmx.getLong(shipper, "LastAckMillis") > 0);
            assertEquals(0L, jmx.getLong(shipper, "LagRecords"));
            jmx.invoke(shipper, "pause");
            host.say("100");
            host.awaitOutput("emitted 200");
            host.awaitCondition("the new events in the file", () -> {
                try {
                    return jmx.getLong(shipper, "LagBytes") > 0 && jmx.getLong(shipper, "LagRecords") == 100;
                } catch (Exception e) {
                    return false;
                }
            });
            assertEquals(100L, jmx.getLong(shipper, "Shipped"), "paused: nothing sent");
            jmx.invoke(shipper, "resume");
            host.awaitCondition("200 shipped", () -> {
                try {
                    return jmx.getLong(shipper, "Shipped") == 200 && jmx.getLong(shipper, "LagBytes") == 0;
                } catch (Exception e) {
                    return false;
                }
            });
            jmx.close();
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
        }
        assertAtLeastOnceInOrder(Topic.read(broker.bootstrap(), "paused", 200), 200, 200);
    }
}
