package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recipes of {@code docs/recipes/} with the real tools against the sample app under the agent:
 * the Prometheus JMX exporter 1.0.1 as a second agent (both orders) with
 * {@code spool-prometheus.yaml}, and jmxterm 1.0.4 running the status, flush, capacity and
 * kill-switch scripts over a JMX port. Also the coexistence checks for that agent: the documents
 * are byte-identical to a run without any agent, no {@code [spool]} line, the beans registered.
 */
class RecipesIT {

    static final int JOBS = 2;
    static final int STEPS = 40;

    @TempDir
    Path root;

    @ParameterizedTest(name = "spool first: {0}")
    @ValueSource(booleans = {true, false})
    void shouldServeTypedMetricsAndObeyTheJmxtermScripts_besideThePrometheusAgent(boolean spoolFirst) throws Exception {
        Path plain = root.resolve("plain");
        Forked.start(root, "plain", List.of(), null, "-jar", JfrIT.sampleJar(), "--out", plain.toString(),
                "--jobs", String.valueOf(JOBS), "--steps", String.valueOf(STEPS), "--threads", "2").awaitSuccess();

        int metricsPort = freePort();
        int jmxPort = freePort();
        Path out = root.resolve("out");
        Path events = root.resolve("events.spool");
        List<String> spool = Forked.agentArgs("spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=" + events);
        String prometheus = "-javaagent:" + tool("jmx_prometheus_javaagent.jar") + "=127.0.0.1:" + metricsPort + ":"
                + recipe("spool-prometheus.yaml");
        List<String> jvm = new ArrayList<>();
        if (spoolFirst) {
            jvm.addAll(spool);
            jvm.add(prometheus);
        } else {
            jvm.add(prometheus);
            jvm.addAll(spool);
        }
        jvm.addAll(List.of("-Dcom.sun.management.jmxremote.port=" + jmxPort, "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false"));
        try (Forked app = Forked.start(root, "sample", jvm, null, "-jar", JfrIT.sampleJar(), "--out", out.toString(),
                "--jobs", String.valueOf(JOBS), "--steps", String.valueOf(STEPS), "--threads", "2", "--hold")) {
            app.awaitOutput("elapsedMillis");
            String sink = "spool_sink_events_written_total{file=\"" + events + "\"}";
            Forked.awaitCondition(() -> metrics(metricsPort).contains(sink));
            String m = metrics(metricsPort);
            for (String counter : List.of("spool_buffer_flushes_total", "spool_buffer_files_written_total",
                    "spool_buffer_writes_absorbed_total", "spool_agent_errors_total", "spool_sink_events_written_total",
                    "spool_sink_dropped_total")) {
                assertTrue(m.contains("# TYPE " + counter + " counter"), counter + " untyped:\n" + m);
            }
            for (String gauge : List.of("spool_buffer_dirty_entries", "spool_buffer_capacity", "spool_agent_routing_enabled",
                    "spool_sink_pending_bytes", "spool_sink_bytes_per_second")) {
                assertTrue(m.contains("# TYPE " + gauge + " gauge"), gauge + " untyped:\n" + m);
            }
            assertEquals(JOBS * STEPS, value(m, "spool_buffer_writes_absorbed_total"), m);
            assertEquals(JOBS * STEPS, value(m, Pattern.quote(sink)), m);
            assertEquals(1, value(m, "spool_agent_routing_enabled"), m);

            String status = jmxterm(jmxPort, "status");
            assertTrue(status.contains("dev.spool:type=Buffer") && status.contains("dev.spool:type=Agent")
                    && status.contains("type=Sink"), status);
            assertTrue(status.contains("RoutingEnabled = true;") && status.contains("WritesAbsorbed = " + JOBS * STEPS + ";"), status);
            String flushed = jmxterm(jmxPort, "flush");
            assertTrue(Pattern.compile("(?m)^\\d+$").matcher(flushed).find(), "flush printed no count: " + flushed);
            assertTrue(jmxterm(jmxPort, "capacity").contains("Capacity = 500;"));
            assertEquals(500, value(metrics(metricsPort), "spool_buffer_capacity"));
            assertTrue(jmxterm(jmxPort, "kill-switch").contains("RoutingEnabled = false;"));
            assertEquals(0, value(metrics(metricsPort), "spool_agent_routing_enabled"));
            // the kill switch announces itself; any other [spool] line is a problem
            assertTrue(Trees.spoolLines(app.err()).stream().allMatch(l -> l.contains("routing disabled")), app.describe());
        }
        Trees.assertSameFiles(plain.resolve("jobs"), out.resolve("jobs"));
    }

    private String jmxterm(int port, String script) throws Exception {
        Forked run = Forked.exec(root, "jmxterm-" + script, List.of(Forked.java(), "-jar", tool("jmxterm-uber.jar").toString(),
                "-l", "127.0.0.1:" + port, "-n", "-v", "silent", "-i", recipe("jmxterm/" + script + ".jmxterm").toString()));
        String out = run.awaitSuccess();
        assertTrue(!run.err().contains("#"), run.describe()); // jmxterm reports errors as "#..." lines
        return out;
    }

    static String metrics(int port) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The value of the one sample whose name (a regex, labels included) is {@code sample}, as a whole number. */
    private static long value(String metrics, String sample) {
        Matcher m = Pattern.compile("(?m)^" + sample + " ([0-9.E+-]+)$").matcher(metrics);
        assertTrue(m.find(), "no " + sample + " in\n" + metrics);
        return (long) Double.parseDouble(m.group(1));
    }

    static Path tool(String name) {
        Path p = Path.of(System.getProperty("spool.it.tools"), name);
        assertTrue(Files.isRegularFile(p), "missing " + p + " (copied by the agent pom's recipe-tools execution)");
        return p;
    }

    static Path recipe(String name) {
        Path p = Path.of(System.getProperty("spool.it.recipes"), name);
        assertTrue(Files.isRegularFile(p), "missing recipe " + p);
        return p;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
