package dev.spool.kafka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events emitted by a host with the agent arrive in Kafka (a real broker in its own JVM): one
 * record per event, in file order, keyed {@code <stream>:<ordinal>}, valued exactly as
 * {@code spool cat} prints the event, with host/pid/file headers; the {@code ship} command ships
 * the same file with the same keys and resumes from its checkpoint.
 */
class ShippingIT {
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    static String agentOptions(Path events, String topic, String extra) {
        return "spool.events.methods=" + ShipHost.class.getName() + "#emit,spool.events.file=" + events
                + ",spool.kafka.bootstrap.servers=" + Broker.sharedBootstrap() + ",spool.kafka.topic=" + topic
                + (extra.isEmpty() ? "" : "," + extra);
    }

    @Test
    void shouldShipEveryEventInFileOrderWithStableKeysAndTheValuesCatPrints(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        int n = 3000;
        try (Host host = Host.ship(dir, "host", agentOptions(events, "ship-all", "spool.kafka.close.timeout=60000"),
                List.of(), null, String.valueOf(n), "0")) {
            assertEquals(0, host.await(180), host.describe());
            assertTrue(host.out().contains("emitted " + n), host.describe());
            assertTrue(!host.err().contains("[spool]"), host.describe());
        }
        List<String> cat = catLines(dir, events);
        assertEquals(n, cat.size());

        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "ship-all", n);
        assertEquals(n, recs.size(), "exactly one record per event: the host's exit waited for every ack");
        String stream = recs.get(0).stream();
        for (int i = 0; i < n; i++) {
            Topic.Rec r = recs.get(i);
            assertEquals(stream + ":" + i, r.key(), "file order, ordinal keys");
            assertEquals(cat.get(i), r.value(), "the value is what cat prints");
            assertEquals(events.toAbsolutePath().toString(), r.headers().get("file"));
            assertTrue(r.headers().containsKey("host") && r.headers().get("pid").matches("\\d+"), r.headers().toString());
        }
        assertEquals(1, recs.stream().map(Topic.Rec::partition).distinct().count(), "one partition per file");

        // the ship command: nothing new after the checkpoint, exit 0
        try (Host ship = Host.cli(dir, "ship-again", "ship", "--bootstrap", broker.bootstrap(), "--topic", "ship-all",
                events.toString())) {
            assertEquals(0, ship.await(180), ship.describe());
        }
        assertEquals(n, Topic.read(broker.bootstrap(), "ship-all", n).size(), "no duplicates from a resumed ship");

        // to another topic: the same keys and values, from the start
        try (Host ship = Host.cli(dir, "ship-other", "ship", "--bootstrap", broker.bootstrap(), "--topic", "ship-copy",
                events.toString())) {
            assertEquals(0, ship.await(180), ship.describe());
            assertTrue(ship.err().contains("done"), ship.describe());
        }
        List<Topic.Rec> copy = Topic.read(broker.bootstrap(), "ship-copy", n);
        assertEquals(n, copy.size());
        for (int i = 0; i < n; i++) {
            assertEquals(recs.get(i).key(), copy.get(i).key(), "keys are stable: the stream id is in the checkpoint");
            assertEquals(recs.get(i).value(), copy.get(i).value());
        }
        Set<String> checkpoints = new HashSet<>();
        try (var files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".checkpoint")).forEach(checkpoints::add);
        }
        assertEquals(Set.of("events.spool.kafka-ship-all.checkpoint", "events.spool.kafka-ship-copy.checkpoint"), checkpoints);
    }

    @Test
    void shouldReportTheShippersLagToJfrUntilEverythingIsAcknowledged(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        int n = 500;
        try (Host host = Host.ship(dir, "host", agentOptions(events, "ship-jfr", "spool.kafka.close.timeout=1000"),
                List.of("-XX:StartFlightRecording=name=spool"), null, String.valueOf(n), "0", "hold")) {
            host.awaitOutput("emitted " + n);
            Path bin = Path.of(Host.java()).getParent();
            int[] dumps = {0};
            String[] last = {null};
            // dump the running recording until an event shows every record acknowledged (the shipper reports once a second)
            host.awaitCondition("a dev.spool.KafkaShipping event with all " + n + " shipped and no lag", () -> {
                try {
                    Path dump = dir.resolve("dump-" + dumps[0]++ + ".jfr");
                    try (Host jcmd = Host.command(dir, "jcmd-" + dumps[0], List.of(bin.resolve("jcmd").toString(),
                            String.valueOf(host.process.pid()), "JFR.dump", "name=spool", "filename=" + dump))) {
                        jcmd.await(120);
                    }
                    try (Host print = Host.command(dir, "print-" + dumps[0], List.of(bin.resolve("jfr").toString(), "print",
                            "--events", "dev.spool.KafkaShipping", dump.toString()))) {
                        print.await(120);
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("dev\\.spool\\.KafkaShipping \\{(.*?)\\n\\}",
                                java.util.regex.Pattern.DOTALL).matcher(print.out());
                        while (m.find()) {
                            last[0] = m.group(1);
                        }
                    }
                    return last[0] != null && last[0].matches("(?s).*\\blagRecords = 0\\b.*")
                            && last[0].matches("(?s).*\\bshipped = " + n + "\\b.*");
                } catch (java.io.IOException | InterruptedException e) {
                    return false;
                }
            });
            assertTrue(last[0].contains("path = \"" + events.toAbsolutePath() + "\""), last[0]);
            assertTrue(last[0].contains("topic = \"ship-jfr\""), last[0]);
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
        }
    }

    static List<String> catLines(Path dir, Path events) throws Exception {
        try (Host cat = Host.cli(dir, "cat-" + System.nanoTime(), "cat", events.toString())) {
            assertEquals(0, cat.await(120), cat.describe());
            return cat.out().lines().toList();
        }
    }
}
