package dev.spool.kafka.it;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Side by side against the real local broker, for docs/BENCHMARKS.md: Spool's shipper, Log4j2's
 * {@code KafkaAppender} with its defaults, the same tuned asynchronous ({@code syncSend=false}
 * inside a non-blocking {@code Async} appender), and logback-kafka-appender (its defaults:
 * asynchronous delivery). Each runs in its own host JVM ({@link AppenderHost}) logging 2,000
 * events/s; the broker is stopped (SIGTERM) at the host's second 10, started again at its second
 * 20 (its own start-up time adds to the outage: printed), and the host ends 10 s after the broker
 * answers again, with its framework's own shutdown. Prints per way: the calling thread's cost per
 * event (p50/p99) with the broker up, down and back, the longest call, events emitted, and how
 * many distinct events reached the topic by the host's exit (for Spool also after a later
 * {@code ship}: what the file kept). Not part of the build (the name matches no test pattern); no
 * assertions on time. Run (about 3 minutes on a quiet machine):
 * {@code smvn -B verify -pl kafka -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=AppenderBench}
 * and read {@code kafka/target/failsafe-reports/dev.spool.kafka.it.AppenderBench-output.txt}
 * (the hosts' raw output: {@code kafka/target/appender-bench/}).
 */
class AppenderBench {
    static final int RATE = 2000;
    static final int DOWN_AT = 10;
    static final int UP_AT = 20;
    static final int AFTER = 10;
    private static final Path RAW = Path.of("target", "appender-bench");
    private static final Pattern SECOND = Pattern.compile("second (\\d+) calls (\\d+) maxCallNanos (\\d+)");
    private static final Pattern EMITTED = Pattern.compile("done emitted (\\d+)");
    private static final Pattern CLOSED = Pattern.compile("closed in (\\d+) ms");
    private static final Pattern SEQ = Pattern.compile("(?:\"i\":|i=)(\\d+)");
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    @Test
    void callerCostAndDeliveryAcrossABrokerOutage() throws Exception {
        Path dir = Files.createTempDirectory("spool-bench-appenders");
        try {
            List<String> rows = new ArrayList<>();
            for (String way : System.getProperty("spool.bench.ways", "spool,log4j-default,log4j-async,logback-kafka").split(",")) {
                rows.add(run(dir, way));
                System.out.println(rows.get(rows.size() - 1));
                System.out.flush();
            }
            System.out.printf("%n%d events/s; broker stopped at the host's second %d, started at its second %d, the host ends %d s after"
                    + " the broker answers again (machine load: %s)%n", RATE, DOWN_AT, UP_AT, AFTER, Files.readString(Path.of("/proc/loadavg")).trim());
            System.out.println("| way | caller ns p50 / p99 (calls), broker up | same, broker down | same, after | longest call ms"
                    + " | records in the topic at second 10 | emitted"
                    + " | delivered by the host's exit | broker unavailable s | framework close ms |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|");
            rows.forEach(System.out::println);
        } finally {
            Broker.deleteTree(dir);
        }
    }

    private String run(Path dir, String way) throws Exception {
        String topic = "bench-" + way;
        Path events = dir.resolve(way + ".spool");
        List<String> args = new ArrayList<>(List.of("-Xmx512m"));
        String cp = System.getProperty("spool.it.hostClasses") + File.pathSeparator + kafkaClientJars();
        switch (way) {
            case "spool":
                args.add("-javaagent:" + Host.deploy(dir) + "=" + ShippingIT.agentOptions(events, topic, "spool.kafka.close.timeout=5000"));
                break;
            case "log4j-default":
            case "log4j-async":
                args.add("-Dlog4j2.configurationFile=" + write(dir, way + ".xml", log4j(topic, way.equals("log4j-async"))));
                cp += File.pathSeparator + benchLib("log4j-api.jar") + File.pathSeparator + benchLib("log4j-core.jar");
                break;
            default:
                args.add("-Dlogback.configurationFile=" + write(dir, way + ".xml", logback(topic)));
                cp += File.pathSeparator + benchLib("logback-classic.jar") + File.pathSeparator + benchLib("logback-core.jar")
                        + File.pathSeparator + benchLib("logback-kafka-appender.jar");
        }
        args.addAll(List.of("-cp", cp, AppenderHost.class.getName(), way.startsWith("log4j") ? "log4j" : way.equals("spool") ? "spool" : "slf4j",
                String.valueOf(RATE)));
        try (Host host = Host.java(dir, way, args)) {
            host.awaitOutput("second " + DOWN_AT + " ");
            long inTopic = Topic.size(broker.bootstrap(), topic);
            long down = System.nanoTime();
            broker.stop();
            host.say("down");
            host.awaitOutput("second " + UP_AT + " ");
            broker.start();
            double outage = (System.nanoTime() - down) / 1e9;
            host.say("up");
            host.awaitOutput("second " + (lastSecond(host.out()) + AFTER) + " ");
            host.say("stop");
            host.awaitOutput("closed in");
            host.await(120);
            String out = host.out();
            Files.createDirectories(RAW);
            Files.writeString(RAW.resolve(way + ".out"), out + "--- stderr\n" + host.err());
            long delivered = delivered(topic);
            String deliveredText = String.valueOf(delivered);
            if (way.equals("spool")) {
                try (Host ship = Host.cli(dir, "ship-" + way, "ship", "--bootstrap", broker.bootstrap(), "--topic", topic, events.toString())) {
                    ship.await(180);
                }
                deliveredText += " (" + delivered(topic) + " after `ship`)";
            }
            long longest = 0;
            Matcher m = SECOND.matcher(out);
            while (m.find()) {
                longest = Math.max(longest, Long.parseLong(m.group(3)));
            }
            return String.format("| %s | %s | %s | %s | %.1f | %d | %d | %s | %.1f | %d |", way, phase(out, "up"), phase(out, "down"), phase(out, "after"),
                    longest / 1e6, inTopic, group(EMITTED, out), deliveredText, outage, group(CLOSED, out));
        }
    }

    private static int lastSecond(String out) {
        Matcher m = SECOND.matcher(out);
        int last = 0;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        return last;
    }

    /** "p50 / p99 (calls)" of one phase, in ns. */
    private static String phase(String out, String name) {
        Matcher m = Pattern.compile("phase " + name + " calls (\\d+) p50Nanos (\\d+) p99Nanos (\\d+)").matcher(out);
        return m.find() ? String.format("%s / %s (%s)", m.group(2), m.group(3), m.group(1)) : "?";
    }

    private static long group(Pattern p, String out) {
        Matcher m = p.matcher(out);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Distinct sequence numbers (≥ 0) in the topic. */
    private static long delivered(String topic) throws InterruptedException {
        Set<Long> seen = new HashSet<>();
        for (Topic.Rec r : Topic.readQuiet(broker.bootstrap(), topic)) {
            Matcher m = SEQ.matcher(r.value());
            if (m.find()) {
                seen.add(Long.parseLong(m.group(1)));
            }
        }
        return seen.size();
    }

    private static String log4j(String topic, boolean async) {
        String kafka = "<Kafka name='kafka' topic='" + topic + "'" + (async ? " syncSend='false'" : "") + ">"
                + "<PatternLayout pattern='%m'/><Property name='bootstrap.servers'>" + broker.bootstrap() + "</Property></Kafka>";
        String appenders = async ? kafka + "<Async name='async' blocking='false' bufferSize='262144'><AppenderRef ref='kafka'/></Async>" : kafka;
        return "<Configuration status='warn'><Appenders>" + appenders + "</Appenders><Loggers>"
                + "<Root level='info'><AppenderRef ref='" + (async ? "async" : "kafka") + "'/></Root></Loggers></Configuration>";
    }

    private static String logback(String topic) {
        return "<configuration>"
                + "<appender name='kafka' class='com.github.danielwegener.logback.kafka.KafkaAppender'>"
                + "<encoder><pattern>%msg</pattern></encoder><topic>" + topic + "</topic>"
                + "<producerConfig>bootstrap.servers=" + broker.bootstrap() + "</producerConfig></appender>"
                + "<logger name='org.apache.kafka' level='WARN'/>"
                + "<root level='INFO'><appender-ref ref='kafka'/></root></configuration>";
    }

    private static Path write(Path dir, String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String benchLib(String name) {
        return Path.of(System.getProperty("spool.it.benchLibs"), name).toString();
    }

    /** kafka-clients (the build's version) with what it needs, from the broker's class path. */
    private static String kafkaClientJars() throws Exception {
        String cp = Files.readString(Path.of(System.getProperty("spool.it.brokerClasspath"))).trim();
        return Stream.of(cp.split(File.pathSeparator))
                .filter(j -> Path.of(j).getFileName().toString().matches("(kafka-clients|lz4-java|snappy-java|zstd-jni|slf4j-api)-.*\\.jar"))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
