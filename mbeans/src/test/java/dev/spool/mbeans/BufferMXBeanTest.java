package dev.spool.mbeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.JMX;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.Notification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferMXBeanTest {
    @TempDir
    Path dir;
    private MBeanServer server;
    private SharedBuffer buffer;
    private SpoolMBeans beans;
    private BufferMXBean proxy;

    @BeforeEach
    void setUp() {
        server = MBeanServerFactory.newMBeanServer();
        buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());
        beans = SpoolMBeans.register(server, buffer, null, p -> { throw new AssertionError(p); });
        proxy = JMX.newMXBeanProxy(server, ObjectNames.buffer(), BufferMXBean.class, true);
    }

    @AfterEach
    void tearDown() {
        beans.close();
        buffer.close();
    }

    @Test
    void shouldShowCreateAtFlushAsTheBufferWasStarted() {
        SharedBuffer held = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).createAtFlush(true).build());
        MBeanServer other = MBeanServerFactory.newMBeanServer();
        SpoolMBeans registered = SpoolMBeans.register(other, held, null, p -> { throw new AssertionError(p); });
        try {
            assertTrue(JMX.newMXBeanProxy(other, ObjectNames.buffer(), BufferMXBean.class, true).isCreateAtFlush());
        } finally {
            registered.close();
            held.close();
        }
    }

    @Test
    void shouldReadEveryAttributeThroughAProxy() throws Exception {
        Files.writeString(dir.resolve("a.json"), "{}"); // an existing file: its next content is buffered
        buffer.putSnapshot(dir.resolve("a.json"), "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertTrue(proxy.isEnabled());
        assertEquals(BufferSettings.DEFAULT_CAPACITY, proxy.getCapacity());
        assertEquals(BufferSettings.DEFAULT_CAPACITY_BYTES, proxy.getCapacityBytes());
        assertEquals(0, proxy.getFlushIntervalMillis());
        assertFalse(proxy.isFsync());
        assertFalse(proxy.isCreateAtFlush());
        assertEquals(buffer.isExclusive() ? "flush" : "call", proxy.getOthersCheck());
        assertEquals(0, proxy.getHostFileOpFailures());
        assertEquals(1, proxy.getEntries());
        assertEquals(1, proxy.getDirtyEntries());
        assertTrue(proxy.getEstimatedBytes() >= 7);
        assertEquals(0, proxy.getFlushes());
        assertEquals(0, proxy.getFilesWritten());
        assertEquals(1, proxy.getWritesAbsorbed());
        assertEquals(0, proxy.getReadsServed());
        assertEquals(0, proxy.getConflicts());
        assertEquals(0, proxy.getLastFlushMillis());
        assertEquals("", proxy.getLastError());
    }

    @Test
    void shouldFlushToDiskThroughTheOperationAndCountIt() throws Exception {
        Path file = dir.resolve("doc.json");
        Files.writeString(file, "{}"); // an existing file (a new one is written at the call)
        buffer.putSnapshot(file, "{\"v\":2}".getBytes(StandardCharsets.UTF_8));
        assertEquals("{}", Files.readString(file));
        assertEquals(1, proxy.flush());
        assertEquals("{\"v\":2}", Files.readString(file));
        assertEquals(1, proxy.getFlushes());
        assertEquals(1, proxy.getFilesWritten());
        assertEquals(0, proxy.getDirtyEntries());
    }

    @Test
    void shouldCountTheStaleTempFilesRemovedBeforeAFolderIsFirstFlushed() throws Exception {
        assertEquals(0, proxy.getStaleTempFilesRemoved());
        Path file = dir.resolve("doc.json");
        Files.writeString(file, "{}");
        // an earlier Spool's temp name (no owner in it), two hours old: a write that never finished
        Path left = dir.resolve(".doc.json.spool-tmp-0123456789abcdef");
        Files.writeString(left, "{\"half");
        Files.setLastModifiedTime(left, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 7_200_000));
        Path young = Files.writeString(dir.resolve(".doc.json.spool-tmp-fedcba9876543210"), "{\"half");
        buffer.putSnapshot(file, "{\"v\":2}".getBytes(StandardCharsets.UTF_8));
        proxy.flush();
        assertFalse(Files.exists(left), "the stale temp file is removed before the folder's first flush");
        assertTrue(Files.exists(young), "one modified within the hour may still be written");
        assertEquals(1, proxy.getStaleTempFilesRemoved());
        assertEquals("{\"v\":2}", Files.readString(file));
    }

    @Test
    void shouldApplyALiveCapacityChangeToWhatIsOnDisk() throws Exception {
        proxy.setCapacity(1);
        assertEquals(1, proxy.getCapacity());
        Path file = dir.resolve("one.json");
        Files.writeString(file, "[]"); // existing files: their next content is buffered
        Files.writeString(dir.resolve("two.json"), "[]");
        buffer.putSnapshot(file, "[1]".getBytes(StandardCharsets.UTF_8));
        assertEquals("[]", Files.readString(file));
        buffer.putSnapshot(dir.resolve("two.json"), "[2]".getBytes(StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!"[1]".equals(Files.readString(file)) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertEquals("[1]", Files.readString(file), "capacity 1 makes a second dirty file wake the background flush");
    }

    @Test
    void shouldShowFlushThreadsAndTheBackpressureCounters() {
        assertEquals(BufferSettings.DEFAULT_FLUSH_THREADS, proxy.getFlushThreads());
        proxy.setFlushThreads(4);
        assertEquals(4, buffer.getFlushThreads());
        assertThrows(IllegalArgumentException.class, () -> proxy.setFlushThreads(0));
        assertEquals(4, proxy.getFlushThreads(), "a refused value changes nothing");
        assertEquals(0, proxy.getBackpressureWaits());
        assertEquals(0, proxy.getBackpressureMillis());
    }

    @Test
    void shouldValidateWritableAttributesAndChangeNothingOnABadValue() {
        proxy.setCapacityBytes(4096);
        proxy.setFlushIntervalMillis(250);
        proxy.setFsync(true);
        proxy.setEnabled(false);
        assertEquals(4096, proxy.getCapacityBytes());
        assertEquals(250, proxy.getFlushIntervalMillis());
        assertTrue(proxy.isFsync());
        assertFalse(proxy.isEnabled());
        assertThrows(IllegalArgumentException.class, () -> proxy.setCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> proxy.setCapacityBytes(0));
        assertThrows(IllegalArgumentException.class, () -> proxy.setFlushIntervalMillis(-1));
        assertEquals(BufferSettings.DEFAULT_CAPACITY, proxy.getCapacity());
        assertEquals(4096, proxy.getCapacityBytes());
        assertEquals(250, proxy.getFlushIntervalMillis());
    }

    @Test
    void shouldSendAFlushCompletedNotification() throws Exception {
        List<Notification> got = new CopyOnWriteArrayList<>();
        server.addNotificationListener(ObjectNames.buffer(), (n, h) -> got.add(n), null, null);
        buffer.putSnapshot(dir.resolve("n.json"), "{}".getBytes(StandardCharsets.UTF_8));
        proxy.flush();
        assertTrue(got.stream().anyMatch(n -> n.getType().equals(SpoolNotifier.FLUSH_COMPLETED)), got.toString());
    }

    @Test
    void shouldSendAConflictNotificationWhenSomeoneElseChangedTheFile() throws Exception {
        Path file = dir.resolve("c.json");
        Files.writeString(file, "{\"owner\":\"them\"}");
        List<Notification> got = new CopyOnWriteArrayList<>();
        server.addNotificationListener(ObjectNames.buffer(), (n, h) -> got.add(n), null, null);
        buffer.putSnapshot(file, "{\"owner\":\"us\"}".getBytes(StandardCharsets.UTF_8));
        Files.writeString(file, "{\"owner\":\"someone else, later and longer\"}");
        proxy.flush();
        assertEquals(1, proxy.getConflicts());
        assertTrue(got.stream().anyMatch(n -> n.getType().equals(SpoolNotifier.CONFLICT)), got.toString());
        assertEquals("{\"owner\":\"someone else, later and longer\"}", Files.readString(file));
    }

    @Test
    void shouldDescribeAttributesAndOperationsForJConsole() throws Exception {
        MBeanInfo info = server.getMBeanInfo(ObjectNames.buffer());
        assertTrue(info.getDescription().contains("write-behind"), info.getDescription());
        for (MBeanAttributeInfo a : info.getAttributes()) {
            assertNotEquals(a.getName(), a.getDescription(), "attribute " + a.getName() + " has no description");
            assertFalse(a.getDescription().isBlank());
        }
        MBeanOperationInfo flush = Arrays.stream(info.getOperations())
                .filter(o -> o.getName().equals("flush")).findFirst().orElseThrow();
        assertTrue(flush.getDescription().contains("dirty file"), flush.getDescription());
        assertEquals(1, info.getNotifications().length);
        assertTrue(Arrays.asList(info.getNotifications()[0].getNotifTypes()).contains(SpoolNotifier.CONFLICT));
    }

    @Test
    void shouldUnregisterEverythingOnClose() {
        assertTrue(server.isRegistered(ObjectNames.buffer()));
        beans.close();
        assertFalse(server.isRegistered(ObjectNames.buffer()));
    }

    @Test
    void shouldReportAClashOnceInsteadOfThrowing() {
        List<String> problems = new CopyOnWriteArrayList<>();
        try (SpoolMBeans second = SpoolMBeans.register(server, buffer, null, problems::add)) {
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).contains("already registered"));
            assertFalse(second.isRegistered(ObjectNames.buffer()));
        }
        assertTrue(server.isRegistered(ObjectNames.buffer()), "the first registration is untouched");
    }
}
