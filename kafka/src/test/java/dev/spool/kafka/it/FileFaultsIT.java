package dev.spool.kafka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What happens to a file that a crash, a disk or a broker hurt, against the real broker: a damaged
 * first frame (the {@code ship} command rerun, and a live host appending to such a file), a file cut
 * short under its checkpoint and grown again, a record the broker refuses for good, a broker that
 * was never reachable at exit. Every verdict comes from consuming the topic and comparing it with
 * what the file holds ({@link Delivery}).
 */
class FileFaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    private static Host ship(Path dir, String name, String topic, Path... files) throws Exception {
        List<String> args = new ArrayList<>(List.of("ship", "--bootstrap", broker.bootstrap(), "--topic", topic,
                "--timeout", "30"));
        for (Path f : files) {
            args.add(f.toString());
        }
        return Host.cli(dir, name, args.toArray(new String[0]));
    }

    private static String streamOf(List<Topic.Rec> recs, Path file) {
        return recs.stream().filter(r -> file.toAbsolutePath().toString().equals(r.headers().get("file")))
                .map(Topic.Rec::stream).findFirst().orElse("(none)");
    }

    @Test
    void shouldShipFilesWhoseFirstOrMiddleFrameIsDamagedOnceEachUnderTheirOwnStreamAcrossReruns(@TempDir Path dir)
            throws Exception {
        Path a = dir.resolve("torn-start-a.spool");
        Path b = dir.resolve("torn-start-b.spool");
        EventFileBytes.emit(a, 0, 7);
        EventFileBytes.emit(b, 100, 4);
        List<Long> framesOfA = EventFileBytes.frames(a);
        EventFileBytes.damage(a, framesOfA.get(0));
        EventFileBytes.damage(a, framesOfA.get(4)); // and one in the middle
        EventFileBytes.damage(b, EventFileBytes.frames(b).get(0));
        List<String> inA = EventFileBytes.values(a);
        List<String> inB = EventFileBytes.values(b);
        assertEquals(5, inA.size());
        assertEquals(3, inB.size());
        for (int run = 0; run < 3; run++) {
            try (Host ship = ship(dir, "ship-" + run, "torn-start", a, b)) {
                assertEquals(0, ship.await(120), ship.describe());
            }
        }
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "torn-start", 8);
        assertEquals(8, recs.size(), "each record once: a rerun resumes from the checkpoint");
        String sa = streamOf(recs, a);
        String sb = streamOf(recs, b);
        assertNotEquals(sa, sb, "two files, two stream ids");
        Delivery.assertExactly(recs, sa, inA, List.of(), Long.MAX_VALUE);
        Delivery.assertExactly(recs, sb, inB, List.of(), Long.MAX_VALUE);
        JsonNode cp = JSON.readTree(dir.resolve("torn-start-a.spool.kafka-torn-start.checkpoint").toFile());
        assertEquals(sa, cp.get("stream").asText());
        assertTrue(cp.get("fingerprint").isTextual() && !cp.get("fingerprint").asText().equals("null"), cp.toString());
    }

    @Test
    void shouldShipALiveFileWhoseFirstFrameIsDamaged(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        EventFileBytes.emit(events, 0, 3);
        EventFileBytes.damage(events, EventFileBytes.frames(events).get(0));
        try (Host host = Host.ship(dir, "host", ShippingIT.agentOptions(events, "torn-start-live",
                "spool.kafka.close.timeout=20000"), List.of(), null, "100", "0")) {
            assertEquals(0, host.await(120), host.describe());
        }
        List<String> file = EventFileBytes.values(events);
        assertEquals(102, file.size());
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "torn-start-live", file.size());
        Delivery.assertExactly(recs, recs.get(0).stream(), file, List.of(), 0);
    }

    @Test
    void shouldStartOverUnderANewStreamIdWhenTheFileIsCutShortUnderItsCheckpointAndGrownAgain(@TempDir Path dir)
            throws Exception {
        Path events = dir.resolve("cut.spool");
        Path checkpoint = dir.resolve("cut.spool.kafka-cut.checkpoint");
        EventFileBytes.emit(events, 0, 10);
        try (Host ship = ship(dir, "ship-0", "cut", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        String first = JSON.readTree(checkpoint.toFile()).get("stream").asText();
        // a crash loses the unsynced tail, the synced checkpoint survives: its offset is past the end now
        EventFileBytes.truncate(events, EventFileBytes.frames(events).get(6));
        try (Host ship = ship(dir, "ship-1", "cut", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        String second = JSON.readTree(checkpoint.toFile()).get("stream").asText();
        assertNotEquals(first, second, "a file cut short is shipped again under a new stream id");
        // the host appends again; a rerun continues the new stream
        EventFileBytes.emit(events, 100, 8);
        try (Host ship = ship(dir, "ship-2", "cut", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "cut", 10 + 14);
        Delivery.assertExactly(recs, second, EventFileBytes.values(events), List.of(), Long.MAX_VALUE);
        // cut again below the checkpoint and grown past it before any ship: the offset is within the file,
        // but mid-frame, or at a frame that is not the one acknowledged
        EventFileBytes.truncate(events, EventFileBytes.frames(events).get(3));
        EventFileBytes.emit(events, 200, 12);
        List<String> file = EventFileBytes.values(events);
        assertEquals(15, file.size());
        try (Host ship = ship(dir, "ship-3", "cut", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        String third = JSON.readTree(checkpoint.toFile()).get("stream").asText();
        assertTrue(!third.equals(first) && !third.equals(second), "a new stream id again: " + third);
        recs = Topic.read(broker.bootstrap(), "cut", 10 + 14 + 15);
        assertEquals(3, Delivery.streams(recs).size(), Delivery.streams(recs).toString());
        Delivery.assertExactly(recs, third, file, List.of(), Long.MAX_VALUE);
    }

    @Test
    void shouldShipAReplacedFileFromItsStartUnderItsOwnStreamId(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("replaced.spool");
        Path checkpoint = dir.resolve("replaced.spool.kafka-replaced.checkpoint");
        EventFileBytes.emit(events, 0, 6);
        try (Host ship = ship(dir, "ship-0", "replaced", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        String first = JSON.readTree(checkpoint.toFile()).get("stream").asText();
        // another file moved over it (a longer one: the old checkpoint's offset is inside it)
        Path other = dir.resolve("other.spool");
        EventFileBytes.emit(other, 500, 9);
        Files.move(other, events, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<String> file = EventFileBytes.values(events);
        try (Host ship = ship(dir, "ship-1", "replaced", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        String second = JSON.readTree(checkpoint.toFile()).get("stream").asText();
        assertNotEquals(first, second);
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "replaced", 6 + 9);
        assertEquals(6 + 9, recs.size());
        Delivery.assertExactly(recs, second, file, List.of(), Long.MAX_VALUE);
    }

    @Test
    void shouldDeadLetterARecordTheBrokerRefusesAndShipEveryOther(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("refused.spool");
        EventFileBytes.emit(events, 0, 10);
        // a clock three hours ahead: Kafka 4 refuses timestamps more than an hour in the future
        EventFileBytes.retime(events, EventFileBytes.frames(events).get(4), System.currentTimeMillis() + TimeUnit.HOURS.toMillis(3));
        List<String> file = EventFileBytes.values(events);
        assertEquals(10, file.size(), "a valid record, only its time is off");
        String err;
        try (Host ship = ship(dir, "ship-0", "refused", events)) {
            assertEquals(0, ship.await(120), ship.describe());
            err = ship.err();
        }
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "refused", 9);
        String stream = recs.get(0).stream();
        // the refused record fails its whole batch: records after it acknowledged in another batch (which
        // may reach the topic first: seen in a clean-clone CI, topic order 9,0,1,2,3,5,...,9) are sent
        // again after the rewind (the unacknowledged window), under the same keys, in file order
        Delivery.assertEveryRecordAndTheResendInOrder(recs, stream, file, List.of(4L));
        assertTrue(err.contains(stream + ":4"), "the refused record is named\n" + err);
        assertTrue(err.contains("1 refused by Kafka"), "the summary counts it\n" + err);
        Path dead = dir.resolve("refused.spool.kafka-refused.dead-letter");
        List<String> lines = Files.readAllLines(dead);
        assertEquals(1, lines.size(), lines.toString());
        JsonNode d = JSON.readTree(lines.get(0));
        assertEquals(stream + ":4", d.get("key").asText());
        assertEquals(file.get(4), JSON.writeValueAsString(d.get("value")), "the dead letter keeps the record");
        assertTrue(d.get("reason").asText().toLowerCase(java.util.Locale.ROOT).contains("timestamp"), d.toString());
        try (Host ship = ship(dir, "ship-1", "refused", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        assertEquals(recs.size(), Topic.read(broker.bootstrap(), "refused", 9).size(), "a rerun sends nothing again");
        assertEquals(1, Files.readAllLines(dead).size(), "nor dead-letters it again");
    }

    @Test
    void shouldShipOnlyWhatTheFileHoldsWhenTheHostExitsWhileAThreadStillEmits(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        try (Host host = Host.ship(dir, "host", ShippingIT.agentOptions(events, "exit-emitting",
                "spool.kafka.close.timeout=3000"), List.of(), null, "3000", "0", "hold")) {
            Topic.awaitCount(broker.bootstrap(), "exit-emitting", 3000); // shipping runs: the exit drain is what is tried
            host.say("spin");
            assertEquals(0, host.await(120), host.describe());
        }
        JsonNode cp = JSON.readTree(dir.resolve("events.spool.kafka-exit-emitting.checkpoint").toFile());
        long ackedAtExit = cp.get("ordinal").asLong();
        try (Host ship = ship(dir, "ship", "exit-emitting", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        List<String> file = EventFileBytes.values(events);
        assertTrue(file.size() >= 3000 && ackedAtExit <= file.size(), ackedAtExit + " of " + file.size());
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "exit-emitting", file.size());
        Delivery.assertExactly(recs, recs.get(0).stream(), file, List.of(), ackedAtExit);
    }

    @Test
    void shouldNotHoldTheHostsExitForTheCloseTimeoutWhenNoBrokerWasEverReachable(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        String nowhere = "127.0.0.1:" + Broker.freePort(); // nothing listens there
        String options = "spool.events.methods=" + ShipHost.class.getName() + "#emit,spool.events.file=" + events
                + ",spool.kafka.bootstrap.servers=" + nowhere + ",spool.kafka.topic=nowhere,spool.kafka.close.timeout=60000";
        long took;
        try (Host host = Host.ship(dir, "host", options, List.of(), null, "200", "0", "hold")) {
            host.awaitOutput("emitted 200");
            long start = System.nanoTime();
            host.say("exit");
            assertEquals(0, host.await(120), host.describe());
            took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        // waiting helps only while records move: far less than the 60 s allowed (generous: a loaded machine)
        assertTrue(took < 30_000, "exit took " + took + " ms with close.timeout 60000 and no broker");
        List<String> file = EventFileBytes.values(events);
        assertEquals(200, file.size());
        try (Host ship = ship(dir, "ship", "nowhere", events)) {
            assertEquals(0, ship.await(120), ship.describe());
        }
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "nowhere", 200);
        Delivery.assertExactly(recs, recs.get(0).stream(), file, List.of(), Long.MAX_VALUE);
    }
}
