package dev.spool.mbeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventLog;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkStreams;
import dev.spool.sink.JournalLayout;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.MBeanServerFactory;
import javax.management.Notification;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Sink bean through a real RMI connector on loopback, over a real event log. */
class SinkMXBeanTest {
    @TempDir
    Path dir;
    private MBeanServer server;
    private JMXConnectorServer connectorServer;
    private JMXConnector connector;
    private MBeanServerConnection remote;
    private SpoolMBeans beans;
    private EventLog log;

    @BeforeEach
    void setUp() throws Exception {
        server = MBeanServerFactory.newMBeanServer();
        connectorServer = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), Map.of(), server);
        connectorServer.start();
        connector = JMXConnectorFactory.connect(connectorServer.getAddress());
        remote = connector.getMBeanServerConnection();
        beans = SpoolMBeans.register(server, null, null, p -> { throw new AssertionError(p); });
    }

    @AfterEach
    void tearDown() throws Exception {
        if (log != null) {
            log.close();
        }
        beans.close();
        connector.close();
        connectorServer.stop();
    }

    private SinkMXBean open(SinkSettings settings) {
        log = EventLog.open(dir.resolve("events.spool"), settings);
        ObjectName name = beans.addSink(log.metrics());
        assertEquals(ObjectNames.sink(dir.resolve("events.spool").toAbsolutePath().toString()), name);
        return JMX.newMXBeanProxy(remote, name, SinkMXBean.class, true);
    }

    @Test
    void shouldReadEveryAttributeAndFlushToDisk() throws Exception {
        SinkMXBean sink = open(SinkSettings.defaults());
        for (int i = 0; i < 100; i++) {
            log.emit(Map.of("i", i));
        }
        long written = sink.flush();
        // the writer may have written everything on its own before flush() (after its linger time)
        assertTrue(written >= 0 && written <= sink.getBytesWritten(), "flush wrote " + written);
        assertEquals(100, sink.getEventsWritten());
        assertTrue(sink.getBytesWritten() > 100);
        assertTrue(Files.size(dir.resolve("events.spool")) >= sink.getBytesWritten());
        assertTrue(sink.getPath().endsWith("events.spool"), sink.getPath());
        assertTrue(sink.getEventsPerSecond() >= 0);
        assertTrue(sink.getBytesPerSecond() >= 0);
        assertEquals(0, sink.getDropped());
        assertEquals(0, sink.getDirectWrites());
        assertEquals(0, sink.getSplitRecords());
        assertEquals(0, sink.getPendingBytes());
        assertEquals(0, sink.getErrors());
        assertEquals("", sink.getLastError());
        assertEquals(SinkSettings.DEFAULT_BUFFER_BYTES, sink.getBufferBytes());
        assertEquals("block", sink.getPolicy());
        assertEquals(0, sink.getMaxBytesPerSecond());
        sink.resetStatistics();
        assertEquals(0, sink.getEventsWritten());
    }

    /**
     * Issue 33: the journal a killed writer left (laid out as {@link JournalLayout} says, its one
     * region holding two frames a plain log wrote) is replayed at open, and the bean says so.
     */
    @Test
    void shouldShowWhatTheOpenRecoveredAndWhatTheJournalHolds() throws Exception {
        Path plain = dir.resolve("plain.spool");
        try (EventLog p = EventLog.open(plain, SinkSettings.builder().journal(false).build())) {
            p.emit("a");
            p.emit("b");
        }
        byte[] frames = java.util.Arrays.copyOfRange(Files.readAllBytes(plain), 16, (int) Files.size(plain));
        Path file = dir.resolve("events.spool");
        Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(plain), 16));     // header only: killed before any write
        int regionBytes = 4096;
        ByteBuffer j = ByteBuffer.allocate(JournalLayout.headerBytes(1) + regionBytes).order(ByteOrder.LITTLE_ENDIAN);
        j.put(0, JournalLayout.MAGIC).putInt(JournalLayout.VERSION_OFFSET, JournalLayout.VERSION)
                .putInt(JournalLayout.REGION_COUNT_OFFSET, 1).putInt(JournalLayout.REGION_BYTES_OFFSET, regionBytes)
                .putLong(JournalLayout.USE_TABLE_OFFSET, 1).put(JournalLayout.headerBytes(1), frames);
        Files.write(JournalLayout.journalOf(file), j.array());
        SinkMXBean sink = open(SinkSettings.builder().maxBytesPerSecond(1).build());
        assertEquals(2, sink.getRecoveredAtOpen());
        log.emit("c");
        log.flush();                                     // the first write is not throttled; the next waits ~40 s
        log.emit("d");                                   // (a byte a second): it stays in the journal meanwhile
        assertTrue(sink.getJournalPendingBytes() > 0, "pending " + sink.getJournalPendingBytes());
        sink.setMaxBytesPerSecond(0);
    }

    @Test
    void shouldValidateWritableAttributesThroughTheConnector() {
        SinkMXBean sink = open(SinkSettings.defaults());
        sink.setPolicy("drop");
        assertEquals("drop", sink.getPolicy());
        sink.setMaxBytesPerSecond(1 << 20);
        assertEquals(1 << 20, sink.getMaxBytesPerSecond());
        sink.setBufferBytes(64 << 10);
        assertEquals(64 << 10, sink.getBufferBytes());
        assertThrows(IllegalArgumentException.class, () -> sink.setPolicy("lossy"));
        assertThrows(IllegalArgumentException.class, () -> sink.setMaxBytesPerSecond(-1));
        assertThrows(IllegalArgumentException.class, () -> sink.setBufferBytes(1));
        assertEquals("drop", sink.getPolicy());
        assertEquals(1 << 20, sink.getMaxBytesPerSecond());
        assertEquals(64 << 10, sink.getBufferBytes());
    }

    @Test
    void shouldNotifyDropsThroughTheConnector() throws Exception {
        SinkMXBean sink = open(SinkSettings.builder().policy(SinkPolicy.DROP).bufferBytes(4096).buffers(2)
                .maxBytesPerSecond(1024).build());
        List<Notification> got = new CopyOnWriteArrayList<>();
        remote.addNotificationListener(ObjectNames.sink(dir.resolve("events.spool").toAbsolutePath().toString()), (n, h) -> got.add(n), null, null);
        byte[] payload = new byte[512];
        long deadline = System.currentTimeMillis() + 20_000;
        while (sink.getDropped() == 0 && System.currentTimeMillis() < deadline) {
            log.emit(Map.of("pad", payload));
        }
        assertTrue(sink.getDropped() > 0, "a throttled writer with policy drop must drop");
        while (got.stream().noneMatch(n -> n.getType().equals(SpoolNotifier.EVENTS_DROPPED))
                && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(got.stream().anyMatch(n -> n.getType().equals(SpoolNotifier.EVENTS_DROPPED)), got.toString());
        sink.setMaxBytesPerSecond(0);
    }

    /**
     * A writer limited to R bytes/s writes, over any span T from the limit being set, no more
     * than R*T plus what one buffer holds (a bound, not a benchmark: a slow machine only writes
     * less).
     */
    @Test
    void shouldWriteNoMoreThanTheRateAllowsPlusOneBuffer() throws Exception {
        int bufferBytes = 8192;
        SinkMXBean sink = open(SinkSettings.builder().bufferBytes(bufferBytes).buffers(2).build());
        long rate = 64 * 1024;
        sink.setMaxBytesPerSecond(rate);
        long start = System.nanoTime();
        long before = sink.getBytesWritten();
        Thread producer = new Thread(() -> {
            byte[] payload = new byte[200];
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() - start < 1_500_000_000L) {
                log.emit(Map.of("pad", payload));
            }
        });
        producer.start();
        producer.join();
        long written = sink.getBytesWritten() - before;
        double seconds = (System.nanoTime() - start) / 1e9;
        long bound = (long) (rate * seconds) + bufferBytes;
        assertTrue(written <= bound, "wrote " + written + " bytes in " + seconds + " s; bound " + bound);
        // on a loaded machine the writer may not have had a turn yet: it writes, throttled, soon after
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (sink.getBytesWritten() - before == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(sink.getBytesWritten() - before > 0);
        sink.setMaxBytesPerSecond(0);
    }

    @Test
    void shouldUnregisterASinkWhenRemoved() throws Exception {
        open(SinkSettings.defaults());
        assertTrue(remote.isRegistered(ObjectNames.sink(dir.resolve("events.spool").toAbsolutePath().toString())));
        beans.removeSink(log.metrics());
        assertTrue(!remote.isRegistered(ObjectNames.sink(dir.resolve("events.spool").toAbsolutePath().toString())));
    }

    @Test
    void shouldNameTwoSinksOnTheSameRelativePathByTheAbsolutePathWithoutAClash() throws Exception {
        Path relative = Path.of("target", "sink-names-" + System.nanoTime(), "events.spool");
        Files.createDirectories(relative.getParent());
        String absolute = relative.toAbsolutePath().toString();
        // an event log and a log stream named by the same relative path (one JVM, one working directory)
        try (EventLog first = EventLog.open(relative, SinkSettings.defaults());
             OutputStream second = SinkStreams.wrap(OutputStream.nullOutputStream(), relative.toString(), SinkSettings.defaults())) {
            ObjectName a = beans.addSink(first.metrics());
            ObjectName b = beans.addSink(SinkStreams.metricsOf(second));
            assertEquals(ObjectNames.sink(absolute), a);
            assertEquals(new ObjectName("dev.spool:type=Sink,name=" + ObjectName.quote(absolute) + ",instance=2"), b);
            assertEquals(2, remote.queryNames(new ObjectName("dev.spool:type=Sink,*"), null).size());
            beans.removeSink(first.metrics());
            beans.removeSink(SinkStreams.metricsOf(second));
            assertEquals(0, remote.queryNames(new ObjectName("dev.spool:type=Sink,*"), null).size());
        }
    }
}
