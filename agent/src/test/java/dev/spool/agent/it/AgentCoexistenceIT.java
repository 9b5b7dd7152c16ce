package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spool beside two agents users commonly attach: the OpenTelemetry Java agent 2.10.0 (exporters
 * off; it instruments JUL, Logback and more) and the Prometheus JMX exporter 1.0.1 (with
 * {@code docs/recipes/spool-prometheus.yaml}), in both orders (Spool first, Spool last), on the
 * JDK {@code spool.it.java} names (CI runs 17 and 25). One host JVM per order runs the sample app
 * (Jackson documents, its JUL {@code sim.log}) and then logs through a JUL {@code FileHandler} and
 * a Logback {@code FileAppender} ({@code CoexistenceHost}; one JVM for all three keeps CI short).
 * The run must write files byte-identical to a run without any agent, print no {@code [spool]}
 * problem line, show Spool's beans through a JMX connector, buffer and route what Spool alone does,
 * and obey the kill switch (switching off flushes the held documents; later records go straight to
 * the files).
 */
class AgentCoexistenceIT {

    static final int JOBS = 2;
    static final int STEPS = 40;
    static final int RECORDS = 200;
    static final List<String> OTEL_QUIET = List.of("-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none",
            "-Dotel.logs.exporter=none");
    /** The OpenTelemetry agent instruments thousands of classes: its hosts start slowly on a loaded machine. */
    static final Duration BOUND = Duration.ofMinutes(3);
    static final ObjectName AGENT = name("dev.spool:type=Agent");
    static final ObjectName BUFFER = name("dev.spool:type=Buffer");

    @TempDir
    static Path plainRun;

    @TempDir
    Path root;

    @ParameterizedTest(name = "spool first: {0}")
    @ValueSource(booleans = {true, false})
    void shouldWriteIdenticalFilesShowItsBeansAndObeyTheKillSwitch_besideOtelAndPrometheus(boolean spoolFirst)
            throws Exception {
        Path plain = plainRun();
        int metricsPort = RecipesIT.freePort();
        // no timed flush: the documents stay held until the kill switch flushes them
        List<String> jvm = agents(spoolFirst, "spool.buffer.flush.interval=0", metricsPort);
        try (Forked host = start(root, jvm)) {
            host.awaitOutput("written", BOUND);
            Path out = root.resolve("out");
            Path logs = root.resolve("logs");
            try (JMXConnector jmx = host.connectJmx()) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                awaitOrDescribe(host, () -> Forked.registered(server, AGENT) && Forked.registered(server, BUFFER));
                assertEquals((long) JOBS * STEPS, server.getAttribute(BUFFER, "WritesAbsorbed"), host.describe());
                assertFalse(sameFiles(plain.resolve("out/jobs"), out.resolve("jobs")), "the last states are held in memory");
                Set<String> open = Set.of(logs.resolve("app.log").toString(), logs.resolve("jul.log").toString());
                // (the sample app's sim.log may still be listed: its bean goes ~5 s after its handler closed)
                awaitOrDescribe(host, () -> sinkPaths(server).containsAll(open), () -> "sinks: " + sinkPaths(server));
                for (ObjectName sink : server.queryNames(name("dev.spool:type=Sink,*"), null)) {
                    if (!open.contains((String) server.getAttribute(sink, "Path"))) {
                        continue;
                    }
                    // every record's bytes went through the sink while Spool routed them
                    awaitOrDescribe(host, () -> longAttribute(server, sink, "EventsWritten") >= RECORDS,
                            () -> sink + " EventsWritten " + longAttribute(server, sink, "EventsWritten"));
                }

                server.setAttribute(AGENT, new Attribute("RoutingEnabled", false));
                assertEquals(Boolean.FALSE, server.getAttribute(AGENT, "RoutingEnabled"));
                Trees.assertSameFiles(plain.resolve("out/jobs"), out.resolve("jobs")); // switching off flushed
            }
            // the Prometheus agent reads the same beans
            awaitOrDescribe(host, () -> RecipesIT.metrics(metricsPort).contains("spool_agent_routing_enabled 0"));
            send(host, "more");
            host.awaitOutput("more written", BOUND);
            host.closeInput();
            assertEquals(0, host.await(BOUND), host.describe());
            List<String> lines = Trees.spoolLines(host.err());
            assertEquals(1, lines.size(), host.describe()); // the kill switch announces itself; anything else is a problem
            assertTrue(lines.get(0).contains("routing disabled"), host.describe());
        }
        Trees.assertSameFiles(plain.resolve("out"), root.resolve("out"));
        Trees.assertSameFiles(plain.resolve("logs"), root.resolve("logs"));
        assertEquals(2 * RECORDS, Files.readAllLines(root.resolve("logs/app.log")).size());
    }

    /** CoexistenceHost writing {@code dir/out} (the sample app) and {@code dir/logs}. */
    private static Forked start(Path dir, List<String> agents) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        List<String> jvm = new ArrayList<>(agents);
        jvm.add("-Dlogback.configurationFile=" + LogRouteIT.logbackConfig(Files.createDirectories(dir.resolve("conf")), logs));
        String cp = Forked.hostClassPath(Forked.logback()) + File.pathSeparator + JfrIT.sampleJar();
        return Forked.start(dir, "host", jvm, cp, "dev.spool.agent.host.CoexistenceHost", logs.toString(),
                String.valueOf(RECORDS), "--out", dir.resolve("out").toString(), "--jobs", String.valueOf(JOBS),
                "--steps", String.valueOf(STEPS), "--threads", "1"); // one thread: sim.log and emits.jsonl in one order
    }

    /** The JVM options of a run with all three agents, Spool first or last. */
    private static List<String> agents(boolean spoolFirst, String spoolOptions, int metricsPort) {
        List<String> others = new ArrayList<>();
        others.add("-javaagent:" + RecipesIT.tool("opentelemetry-javaagent.jar"));
        others.add("-javaagent:" + RecipesIT.tool("jmx_prometheus_javaagent.jar") + "=127.0.0.1:" + metricsPort + ":"
                + RecipesIT.recipe("spool-prometheus.yaml"));
        List<String> jvm = new ArrayList<>(OTEL_QUIET);
        if (spoolFirst) {
            jvm.addAll(Forked.agentArgs(spoolOptions));
            jvm.addAll(others);
        } else {
            jvm.addAll(others);
            jvm.addAll(Forked.agentArgs(spoolOptions));
        }
        return jvm;
    }

    /** The same run without any agent (once per class): the sample app, records, more, end. */
    private static synchronized Path plainRun() throws Exception {
        if (!Files.isDirectory(plainRun.resolve("out"))) {
            try (Forked host = start(plainRun, List.of())) {
                host.awaitOutput("written", BOUND);
                send(host, "more");
                host.awaitOutput("more written", BOUND);
                host.closeInput();
                assertEquals(0, host.await(BOUND), host.describe());
            }
        }
        return plainRun;
    }

    private static void awaitOrDescribe(Forked host, BooleanSupplier condition) throws Exception {
        awaitOrDescribe(host, condition, () -> "");
    }

    private static void awaitOrDescribe(Forked host, BooleanSupplier condition, Supplier<String> state) throws Exception {
        try {
            Forked.awaitCondition(BOUND, condition);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " " + state.get() + "\n" + host.describe(), e);
        }
    }

    private static Set<String> sinkPaths(MBeanServerConnection server) {
        Set<String> paths = new TreeSet<>();
        try {
            for (ObjectName sink : server.queryNames(name("dev.spool:type=Sink,*"), null)) {
                paths.add((String) server.getAttribute(sink, "Path"));
            }
        } catch (Exception e) {
            return Set.of();
        }
        return paths;
    }

    private static long longAttribute(MBeanServerConnection server, ObjectName bean, String attribute) {
        try {
            return (Long) server.getAttribute(bean, attribute);
        } catch (Exception e) {
            throw new AssertionError("cannot read " + attribute + " of " + bean, e);
        }
    }


    private static boolean sameFiles(Path a, Path b) throws IOException {
        if (!Trees.names(a).equals(Trees.names(b))) {
            return false;
        }
        for (String name : Trees.names(a)) {
            if (!Arrays.equals(Files.readAllBytes(a.resolve(name)), Files.readAllBytes(b.resolve(name)))) {
                return false;
            }
        }
        return true;
    }

    private static void send(Forked host, String line) throws IOException {
        OutputStream in = host.process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (Exception e) {
            throw new IllegalArgumentException(name, e);
        }
    }
}
