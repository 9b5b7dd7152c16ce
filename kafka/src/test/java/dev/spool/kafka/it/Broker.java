package dev.spool.kafka.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node KRaft Kafka broker (Kafka's own {@code kafka.Kafka}, the version of the
 * build) in a JVM of its own, on loopback ports chosen free at creation; it keeps its ports and
 * data across {@link #stop()} and {@link #start()}, like a broker an operator restarts. Its class
 * path is written by the build ({@code spool.it.brokerClasspath}); its log goes to
 * {@code broker.log} in its folder.
 */
public final class Broker implements AutoCloseable {
    private final Path dir;
    private final int port;
    private final int controllerPort;
    private Process process;
    private static Broker shared;

    /**
     * The broker all integration test classes of this JVM share (one start for the whole run; CI
     * time): created and started on first use; when the JVM ends it is killed and its folder
     * deleted (by a shutdown hook, or, if this JVM is killed outright, by the broker itself: see
     * {@link BrokerMain}). A test that stops it starts it again before it returns.
     */
    public static synchronized Broker shared() throws Exception {
        if (shared == null) {
            Path dir = Files.createTempDirectory("spool-it-broker");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    if (shared != null) {
                        shared.close();
                    }
                } catch (InterruptedException ignored) {
                    // ending
                } finally {
                    deleteTree(dir);
                }
            }));
            Broker b = new Broker(dir);
            shared = b.start();
        } else if (!shared.running()) {
            shared.start();
        }
        return shared;
    }

    /** The bootstrap address of {@link #shared()} (after some test class started it). */
    static synchronized String sharedBootstrap() {
        return shared.bootstrap();
    }

    boolean running() {
        return process != null && process.isAlive();
    }

    Broker(Path dir) throws IOException, InterruptedException {
        this.dir = dir;
        this.port = freePort();
        this.controllerPort = freePort();
        Files.createDirectories(dir);
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dir.resolve("data").toString());
        p.put("num.partitions", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "true");
        try (var w = Files.newBufferedWriter(config())) {
            p.store(w, "Spool integration test broker");
        }
        Process format = java("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
                config().toString()).redirectOutput(dir.resolve("format.log").toFile())
                .redirectErrorStream(true).start();
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting the broker's storage failed:\n"
                    + Files.readString(dir.resolve("format.log")));
        }
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    private Path config() {
        return dir.resolve("server.properties");
    }

    /** Starts the broker and waits (bounded) until it answers. */
    Broker start() throws Exception {
        process = java(BrokerMain.class.getName(), dir.toString(), config().toString())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile()))
                .redirectErrorStream(true).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (Admin admin = admin()) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return this;
                } catch (Exception e) {
                    if (!process.isAlive() || System.nanoTime() > deadline) {
                        throw new IllegalStateException("the broker did not start:\n" + log(), e);
                    }
                }
            }
        }
    }

    /** Stops it as an operator would (SIGTERM, controlled shutdown); bounded. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    long pid() {
        return process.pid();
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000"));
    }

    String log() {
        try {
            return Files.readString(dir.resolve("broker.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no broker log: " + e + ")";
        }
    }

    private ProcessBuilder java(String main, String... args) throws IOException {
        String cp = Files.readString(Path.of(System.getProperty("spool.it.brokerClasspath"))).trim()
                + java.io.File.pathSeparator + System.getProperty("spool.it.hostClasses"); // BrokerMain
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                "-Djava.awt.headless=true", "-cp", cp, main));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** Deletes a folder and everything in it, as far as it can (best effort: a cleanup). */
    static void deleteTree(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // already gone, or not ours to delete
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
