package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.mbeans.AgentMXBean;
import dev.spool.mbeans.BufferMXBean;
import dev.spool.mbeans.ObjectNames;
import dev.spool.mbeans.SinkMXBean;
import dev.spool.mbeans.SpoolNotifier;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import javax.management.JMX;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample app under the agent, managed through a real remote JMX connector on loopback
 * ({@code com.sun.management.jmxremote.port}, authentication and SSL off for this test only):
 * every attribute read, every writable one set (valid and invalid), every operation called, a
 * notification received, and a live capacity change and a {@code flush()} seen on disk.
 */
class JmxRemoteIT {
    private static final int JOBS = 4;
    private static final int STEPS = 60;

    @TempDir
    Path root;

    @Test
    void shouldManageTheSampleAppThroughARemoteConnector() throws Exception {
        String sampleJar = System.getProperty("spool.it.sampleJar");
        assertTrue(sampleJar != null && Files.isRegularFile(Path.of(sampleJar)),
                "spool.it.sampleJar must name the built sample app: " + sampleJar);
        int port = freePort();
        Path out = root.resolve("out");
        Path events = root.resolve("events.spool");
        List<String> jvm = new java.util.ArrayList<>(Forked.agentArgs("spool.buffer.flush.interval=0,"
                + "spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=" + events));
        jvm.addAll(List.of("-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1",
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false"));
        try (Forked app = Forked.start(root, "sample", jvm, null, "-jar", sampleJar, "--out", out.toString(),
                "--jobs", String.valueOf(JOBS), "--steps", String.valueOf(STEPS), "--threads", "2", "--hold")) {
            app.awaitOutput("elapsedMillis");
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
            try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
                MBeanServerConnection server = connector.getMBeanServerConnection();
                Forked.awaitCondition(() -> Forked.registered(server, ObjectNames.buffer()) && sinkCount(server) > 0);
                readEveryAttribute(server);
                checkBuffer(server, out);
                checkSink(server);
                checkAgent(server);
            }
        }
    }

    private static void checkBuffer(MBeanServerConnection server, Path out) throws Exception {
        BufferMXBean buffer = JMX.newMXBeanProxy(server, ObjectNames.buffer(), BufferMXBean.class, true);
        List<Notification> got = new CopyOnWriteArrayList<>();
        server.addNotificationListener(ObjectNames.buffer(), (n, h) -> got.add(n), null, null);
        // no timed flush and the default capacity: each document was created at its first write (issue
        // 10 item 7), its later steps are still only in memory
        assertEquals(JOBS, buffer.getDirtyEntries(), "dirty entries");
        Map<Path, String> first = docContents(out);
        assertEquals(JOBS, first.size(), "every doc.json exists from its first write on");
        assertEquals((long) JOBS * STEPS, buffer.getWritesAbsorbed());

        buffer.setCapacity(1); // a live change: over capacity now, so it flushes at once
        Forked.awaitCondition(() -> {
            Map<Path, String> now = docContents(out);
            return now.size() == first.size() && first.keySet().stream().noneMatch(p -> first.get(p).equals(now.get(p)));
        });
        assertEquals(1, buffer.getCapacity());
        assertEquals(0, buffer.getDirtyEntries());
        Forked.awaitCondition(() -> got.stream().anyMatch(n -> n.getType().equals(SpoolNotifier.FLUSH_COMPLETED)));

        assertEquals(0, buffer.flush(), "nothing dirty is left to write");
        assertThrows(IllegalArgumentException.class, () -> buffer.setCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> buffer.setCapacityBytes(0));
        assertThrows(IllegalArgumentException.class, () -> buffer.setFlushIntervalMillis(-1));
        assertEquals(1, buffer.getCapacity(), "a refused value changes nothing");
        buffer.setCapacity(500);
        buffer.setCapacityBytes(1 << 20);
        buffer.setFlushIntervalMillis(250);
        buffer.setFsync(true);
        buffer.setEnabled(false);
        assertEquals(500, buffer.getCapacity());
        assertEquals(1 << 20, buffer.getCapacityBytes());
        assertEquals(250, buffer.getFlushIntervalMillis());
        assertTrue(buffer.isFsync());
        assertFalse(buffer.isEnabled());
        buffer.setEnabled(true);
    }

    private static void checkSink(MBeanServerConnection server) throws Exception {
        ObjectName name = server.queryNames(new ObjectName("dev.spool:type=Sink,*"), null).stream()
                .filter(n -> n.getKeyProperty("name").contains("events.spool")).findFirst().orElseThrow();
        SinkMXBean sink = JMX.newMXBeanProxy(server, name, SinkMXBean.class, true);
        assertTrue(sink.flush() >= 0);
        assertEquals((long) JOBS * STEPS, sink.getEventsWritten(), "every emitted record is on disk after flush()");
        assertEquals(0, sink.getPendingBytes());
        assertThrows(IllegalArgumentException.class, () -> sink.setPolicy("lossy"));
        assertThrows(IllegalArgumentException.class, () -> sink.setMaxBytesPerSecond(-1));
        assertThrows(IllegalArgumentException.class, () -> sink.setBufferBytes(1));
        sink.setPolicy("drop");
        sink.setMaxBytesPerSecond(1 << 20);
        sink.setBufferBytes(1 << 16);
        assertEquals("drop", sink.getPolicy());
        assertEquals(1 << 20, sink.getMaxBytesPerSecond());
        assertEquals(1 << 16, sink.getBufferBytes());
        sink.resetStatistics();
        assertEquals(0, sink.getEventsWritten());
    }

    private static void checkAgent(MBeanServerConnection server) {
        AgentMXBean agent = JMX.newMXBeanProxy(server, ObjectNames.agent(), AgentMXBean.class);
        assertFalse(agent.getVersion().isBlank());
        assertTrue(agent.getInstrumentedClasses().stream().anyMatch(c -> c.contains("ObjectMapper")),
                agent.getInstrumentedClasses().toString());
        assertEquals("0", agent.getConfiguration().get("spool.buffer.flush.interval"));
        assertEquals(0, agent.getErrors());
        agent.setRoutingEnabled(false);
        assertFalse(agent.isRoutingEnabled());
        agent.setRoutingEnabled(true);
        assertTrue(agent.isRoutingEnabled());
    }

    /** Every attribute of every dev.spool bean, read through the connector as JConsole would. */
    private static void readEveryAttribute(MBeanServerConnection server) throws Exception {
        Set<ObjectName> names = server.queryNames(new ObjectName("dev.spool:*"), null);
        assertTrue(names.size() >= 3, names.toString());
        for (ObjectName n : names) {
            for (MBeanAttributeInfo a : server.getMBeanInfo(n).getAttributes()) {
                assertTrue(a.isReadable(), n + " " + a.getName());
                assertNotNull(server.getAttribute(n, a.getName()), n + " " + a.getName());
                assertFalse(a.getDescription().equals(a.getName()), "no description for " + n + " " + a.getName());
            }
        }
    }

    /** Every doc.json under {@code out} and its content now. */
    private static Map<Path, String> docContents(Path out) {
        Map<Path, String> docs = new HashMap<>();
        try (Stream<Path> s = Files.walk(out.resolve("jobs"))) {
            for (Path p : s.filter(p -> p.getFileName().toString().equals("doc.json")).toList()) {
                docs.put(p, Files.readString(p));
            }
        } catch (IOException | java.io.UncheckedIOException e) { // Files.walk's stream throws the unchecked one
            return Map.of(); // a file being replaced right now: the caller polls again
        }
        return docs;
    }


    private static int sinkCount(MBeanServerConnection server) {
        try {
            return server.queryNames(new ObjectName("dev.spool:type=Sink,*"), null).size();
        } catch (Exception e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
