package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.mbeans.SinkMXBean;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@code Sink} bean per logical log, through a real JMX connector against forked hosts whose
 * logs roll (issue 17): a JUL {@code FileHandler} with limit and count, a Logback
 * {@code RollingFileAppender} with a size-and-time policy and gzip. Across every roll the bean
 * keeps its name, its counters equal the lines written, and settings made live stay in force;
 * once the log is closed for good, the bean goes, and with no log left the sweeping thread ends.
 */
class SinkPerLogIT {

    private static final int FIRST = 20;
    private static final int SECOND = 2500;

    @TempDir
    Path root;

    @Test
    void shouldKeepOneSinkBeanAcrossJulRotation() throws Exception {
        Path dir = Files.createDirectories(root.resolve("jul"));
        try (Forked host = Forked.start(root, "jul-host", Forked.agentArgs(null), Forked.hostClassPath(),
                "dev.spool.agent.host.RollingLogHost", "jul", dir.resolve("app%g.log").toString(), "4000", "100")) {
            ObjectName name = new ObjectName("dev.spool:type=Sink,name=" + ObjectName.quote(dir.resolve("app0.log").toString()));
            exercise(host, name, dir, () -> { });
            assertEquals(FIRST + SECOND, lines(dir, ".log").size(), "every line in the files");
        }
    }

    @Test
    void shouldKeepOneSinkBeanAcrossLogbackSizeAndTimeRolls() throws Exception {
        Path dir = Files.createDirectories(root.resolve("logback"));
        String pattern = dir.resolve("app-%d{yyyy-MM-dd_HH-mm-ss}.%i.log.gz").toString();
        Path config = dir.resolve("logback.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"ROLLING\" class=\"ch.qos.logback.core.rolling.RollingFileAppender\">\n"
                + "    <file>" + dir.resolve("app.log") + "</file>\n"
                + "    <rollingPolicy class=\"ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy\">\n"
                + "      <fileNamePattern>" + pattern + "</fileNamePattern>\n"
                + "      <maxFileSize>4KB</maxFileSize>\n"
                + "    </rollingPolicy>\n"
                + "    <encoder><pattern>%msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"ROLLING\"/></root>\n"
                + "</configuration>\n", StandardCharsets.UTF_8);
        try (Forked host = Forked.start(root, "logback-host", List.of(Forked.agentArgs(null).get(0),
                "-Dlogback.configurationFile=" + config), Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.RollingLogHost", "logback")) {
            ObjectName name = new ObjectName("dev.spool:type=Sink,name=" + ObjectName.quote(pattern)
                    + ",appender=" + ObjectName.quote("ROLLING"));
            long second = System.currentTimeMillis() / 1000;
            // a time-based roll between the two rounds: the second in the file name pattern changes
            exercise(host, name, dir, () -> Forked.awaitCondition(() -> System.currentTimeMillis() / 1000 > second + 1));
            List<String> all = lines(dir, ".log");
            all.addAll(lines(dir, ".gz"));
            assertEquals(FIRST + SECOND, all.size(), "every line in the active file and the compressed ones");
        }
    }

    interface Step {
        void run() throws Exception;
    }

    /**
     * Logs {@link #FIRST} lines, sets the bean's settings live, waits {@code between}, logs
     * {@link #SECOND} lines (many rolls), and checks the bean before and after; then closes the log
     * for good with the JVM still running and awaits the bean's end (issue 15: the sample app's
     * {@code sim.log} kept its bean until exit, on Java 17 and 25 alike); then ends the host.
     */
    private static void exercise(Forked host, ObjectName name, Path dir, Step between) throws Exception {
        host.awaitOutput("ready");
        OutputStream in = host.process.getOutputStream();
        send(in, "log " + FIRST);
        host.awaitOutput("logged " + FIRST);
        try (JMXConnector jmx = host.connectJmx()) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName sinks = new ObjectName("dev.spool:type=Sink,*");
            Forked.awaitCondition(() -> names(server, sinks).size() == 1);
            assertEquals(Set.of(name), names(server, sinks));
            SinkMXBean bean = JMX.newMXBeanProxy(server, name, SinkMXBean.class);
            // the bean's flush first encodes what the log still holds captured (a deferred Logback
            // appender's queue), then drains the sink: every event logged so far is written
            bean.flush();
            assertEquals(FIRST, bean.getEventsWritten());
            bean.setBufferBytes(65536);
            bean.setPolicy("sync");
            bean.setMaxBytesPerSecond(500_000_000L);
            int files = countFiles(dir);

            between.run();
            send(in, "log " + SECOND);
            host.awaitOutput("logged " + (FIRST + SECOND));
            bean.flush();
            // Logback renames a rolled file to <name><nanos>.tmp and compresses it on its own
            // executor, so the .gz may come after the last line is written (a clean-clone CI saw
            // only .tmp files here): await it, as a user listing the folder would
            try {
                Forked.awaitCondition(() -> countFilesOrZero(dir) > files);
            } catch (AssertionError e) {
                throw new AssertionError("the log did not roll: " + listing(dir), e);
            }
            assertEquals(Set.of(name), names(server, sinks), "one bean, under its first name");
            assertEquals(FIRST + SECOND, bean.getEventsWritten(), "cumulative across rolls");
            assertEquals(0, bean.getDropped());
            assertEquals(0, bean.getErrors(), bean.getLastError());
            assertEquals(65536, bean.getBufferBytes());
            assertEquals("sync", bean.getPolicy());
            assertEquals(500_000_000L, bean.getMaxBytesPerSecond());
            assertTrue(Files.exists(Path.of(bean.getPath())), "Path is the active file: " + bean.getPath());

            // closed for good while the JVM lives on: the bean goes (LogSinks.LINGER_NANOS, 5 s, and
            // one sweep); before the sweeping thread it stayed until another log opened or exit
            send(in, "close");
            host.awaitOutput("closed, holding");
            Forked.awaitCondition(Duration.ofMinutes(2), () -> names(server, sinks).isEmpty());
            // no log left: the sweeping thread ends rather than wake every 1.25 s for nothing
            ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.THREAD_MXBEAN_NAME,
                    ThreadMXBean.class);
            Forked.awaitCondition(Duration.ofMinutes(2), () -> Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds()))
                    .noneMatch(t -> t != null && t.getThreadName().equals("spool-log-sweep")));
        }
        in.close();
        host.awaitOutput("closed");
        assertEquals(0, host.await(), host.describe());
    }

    private static Set<ObjectName> names(MBeanServerConnection server, ObjectName pattern) {
        try {
            return server.queryNames(pattern, null);
        } catch (Exception e) {
            return Set.of();
        }
    }

    private static int countFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return (int) files.filter(p -> p.toString().endsWith(".log") || p.toString().endsWith(".gz")).count();
        }
    }

    private static int countFilesOrZero(Path dir) {
        try {
            return countFiles(dir);
        } catch (Exception e) {
            return 0;
        }
    }

    private static String listing(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().reduce("", (a, b) -> a + " " + b);
        }
    }

    /** The lines of every file in {@code dir} ending in {@code suffix} (gzip files decompressed). */
    private static List<String> lines(Path dir, String suffix) throws Exception {
        List<String> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(suffix))::iterator) {
                try (InputStream raw = Files.newInputStream(p);
                     InputStream data = suffix.equals(".gz") ? new GZIPInputStream(raw) : raw;
                     BufferedReader r = new BufferedReader(new InputStreamReader(data, StandardCharsets.UTF_8))) {
                    r.lines().forEach(all::add);
                }
            }
        }
        return all;
    }

    private static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
