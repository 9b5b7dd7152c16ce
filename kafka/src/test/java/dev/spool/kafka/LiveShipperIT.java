package dev.spool.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.kafka.it.Broker;
import dev.spool.kafka.it.Delivery;
import dev.spool.kafka.it.EventFileBytes;
import dev.spool.kafka.it.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live shipper (the one the agent runs beside a host that still appends) driven with the
 * runtime's own classes, so the interleavings with the writer are exact rather than raced for: the
 * exit drain while a frame is half written, a file deleted and recreated while the shipper waits
 * for its first frame, a file cut short under a running shipper. Against the real broker; every
 * verdict from the consumed topic against the file ({@link Delivery}).
 */
class LiveShipperIT {
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    private static FileShipper shipper(Path file, String topic, boolean finalMode, List<String> reports,
                                       Runnable onReport) {
        ShipperSettings s = ShipperSettings.from(Map.of("bootstrap.servers", broker.bootstrap(), "topic", topic));
        return new FileShipper(file, s, finalMode, "test-host", "live-" + topic + "-" + finalMode, (k, m) -> {
            reports.add(m);
            onReport.run();
        });
    }

    private static Thread start(FileShipper s) {
        Thread t = new Thread(s, "test-shipper");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within 30 s");
            }
            Thread.sleep(20);
        }
    }

    private static void drain(FileShipper s, Thread t) throws InterruptedException {
        s.drainBy(System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
        t.join(90_000);
        assertFalse(t.isAlive(), "the drain ended");
    }

    @Test
    void shouldNotTakeAFrameStillBeingWrittenForDamageWhileDrainingAtExit(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("drain.spool");
        Path more = dir.resolve("more.spool");
        EventFileBytes.emit(events, 0, 5);
        EventFileBytes.emit(more, 5, 3);
        byte[] next = Files.readAllBytes(more);
        byte[] frames = Arrays.copyOfRange(next, 16, next.length);
        int half = (int) (EventFileBytes.frames(more).get(1) - 16) / 2;
        EventFileBytes.append(events, Arrays.copyOf(frames, half)); // a host thread is writing frame 5
        AtomicBoolean written = new AtomicBoolean();
        Runnable writeTheRest = () -> {
            if (written.compareAndSet(false, true)) {
                try {
                    EventFileBytes.append(events, Arrays.copyOfRange(frames, half, frames.length));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        List<String> reports = new CopyOnWriteArrayList<>();
        // the writer completes the frame (and two more) the moment the shipper says anything about it
        FileShipper live = shipper(events, "drain", false, reports, writeTheRest);
        Thread t = start(live);
        await("5 shipped", () -> live.status().getShipped() == 5);
        drain(live, t);
        writeTheRest.run();
        assertEquals(List.of(), reports, "nothing is damaged: a frame cut by the end was being written");
        List<String> shipReports = new CopyOnWriteArrayList<>();
        FileShipper ship = shipper(events, "drain", true, shipReports, () -> { });
        drain(ship, start(ship));
        assertTrue(ship.complete(), shipReports.toString());
        List<String> file = EventFileBytes.values(events);
        assertEquals(8, file.size());
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "drain", 8);
        Delivery.assertExactly(recs, recs.get(0).stream(), file, List.of(), 5);
    }

    @Test
    void shouldShipAFileDeletedAndRecreatedWhileWaitingForItsFirstFrame(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("recreated.spool");
        EventFileBytes.emit(events, 0, 0); // the header only: no frame yet
        FileShipper live = shipper(events, "recreated", false, new CopyOnWriteArrayList<>(), () -> { });
        Thread t = start(live);
        await("the shipper holding the file open", () -> openHere(events));
        Files.delete(events);
        EventFileBytes.emit(events, 0, 5); // a new file under the same name
        List<String> file = EventFileBytes.values(events);
        await("the new file's 5 records shipped", () -> live.status().getShipped() == 5);
        drain(live, t);
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "recreated", 5);
        Delivery.assertExactly(recs, recs.get(0).stream(), file, List.of(), Long.MAX_VALUE);
    }

    @Test
    void shouldStartOverUnderANewStreamIdWhenTheFileIsCutUnderARunningShipper(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("cut-live.spool");
        EventFileBytes.emit(events, 0, 10);
        FileShipper live = shipper(events, "cut-live", false, new CopyOnWriteArrayList<>(), () -> { });
        Thread t = start(live);
        await("10 shipped", () -> live.status().getShipped() == 10);
        EventFileBytes.truncate(events, EventFileBytes.frames(events).get(6));
        await("the cut noticed", () -> live.status().getLastError().contains("cut short"));
        EventFileBytes.emit(events, 100, 3);
        List<String> file = EventFileBytes.values(events);
        assertEquals(9, file.size());
        await("the file shipped again", () -> live.status().getShipped() == 10 + 9);
        drain(live, t);
        List<Topic.Rec> recs = Topic.read(broker.bootstrap(), "cut-live", 19);
        List<String> streams = Delivery.streams(recs);
        assertEquals(2, streams.size(), streams.toString());
        Delivery.assertExactly(recs, streams.get(1), file, List.of(), Long.MAX_VALUE);
    }

    /** True when this JVM has {@code file} open (Linux: /proc/self/fd). */
    private static boolean openHere(Path file) {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file.toRealPath());
                } catch (IOException | UnsupportedOperationException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            return false;
        }
    }
}
