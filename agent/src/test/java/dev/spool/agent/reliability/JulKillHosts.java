package dev.spool.agent.reliability;

import static dev.spool.agent.reliability.KillAcks.read;
import static dev.spool.agent.reliability.KillAcks.total;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.it.Forked;
import dev.spool.mbeans.SinkMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The hosts of one {@link JulJournalKillIT} test: starts {@link JulJournalKillHost} in forked JVMs (with the
 * agent, or without it and then {@code spool attach PID}), runs the kill rounds with the checks made while a host
 * runs (the attach, round 1's Sink bean), runs the final {@code spool recover} under a JFR recording and checks its
 * {@code dev.spool.JournalRecovery} event, and reads what each round acknowledged ({@code acks-<round>}, a
 * {@code MAP_SHARED} file the host writes).
 *
 * <p>Threads: the test's thread only; one per test, in its temp dir (the settings are the test's: given before the
 * first host starts).
 */
final class JulKillHosts {
    private final Path dir;
    /** Each host starts without the agent and gets it by {@code spool attach} once logging. */
    private final boolean attach;
    /** false: {@code spool.sink.journal=false} on every host and attach. */
    private final boolean journal;
    /** The seed of the kill points, named in every failure. */
    private final long seed;

    JulKillHosts(Path dir, boolean attach, boolean journal, long seed) {
        this.dir = dir;
        this.attach = attach;
        this.journal = journal;
        this.seed = seed;
    }

    /**
     * {@code kills} host rounds, all appending to {@code app.log} ({@code log}: the file routed and journaled), each
     * killed at a random point; the last acknowledged seq per thread of each round.
     */
    long[][] killRounds(int kills, List<String> hostProperties, String rotation, Path log) throws Exception {
        boolean rotating = rotation.startsWith("rotate");
        Random random = new Random(seed);
        Path pattern = dir.resolve("app.log");
        List<String> mode = rotation.isEmpty() ? List.of() : List.of(rotation);
        long[][] acked = new long[kills][];
        for (int round = 0; round < kills; round++) {
            Path acks = dir.resolve("acks-" + round);
            List<String> jvm = new ArrayList<>(hostProperties);
            if (!attach) {
                jvm.addAll(Forked.agentArgs(journal ? "" : "spool.sink.journal=false"));
            }
            List<String> args = new ArrayList<>(List.of(pattern.toString(), acks.toString(), "" + round));
            args.addAll(mode);
            Forked host = Forked.start(dir, "host-" + round, jvm, Forked.hostClassPath(), JulJournalKillHost.class.getName(),
                    args.toArray(String[]::new));
            try {
                host.awaitOutput("started", Duration.ofSeconds(60));
                // one test reads the bean: a rotating round's kill, or one with a 64 KiB ring its callers keep emptying,
                // may find every line done (seen once: the full ring's round 0 left nothing to replay)
                if (round == 1 && journal && rotation.isEmpty() && hostProperties.isEmpty()) {
                    checkSinkBean(host, log);
                }
                long base = 0;
                if (attach) { // the handler logged plain up to here (each record flushed at its call): the agent now
                    String pid = String.valueOf(host.pid());
                    Forked attached = journal ? Forked.cli(dir, "attach-" + round, "attach", pid)
                            : Forked.cli(dir, "attach-" + round, "attach", pid, "spool.sink.journal=false");
                    assertEquals("attached to " + pid, attached.awaitSuccess().trim(), attached.describe());
                    base = total(acks);
                }
                // the kill lands anywhere in capture, journal, format, write, trim (rotating: after a few rotations at least)
                long target = base + (rotating ? 6_000 : 200) + random.nextInt(30_000);
                Forked.awaitCondition(Duration.ofSeconds(60), () -> total(acks) >= target || !host.process.isAlive());
                assertTrue(host.process.isAlive(), "host died (seed " + seed + ", round " + round + ")\n" + host.describe());
            } finally {
                host.process.destroyForcibly();
                assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
            }
            acked[round] = read(acks);
        }
        return acked;
    }

    /**
     * {@code spool recover log} after the last kill, under a JFR recording: one {@code dev.spool.JournalRecovery}
     * event naming {@code log} and the lines replayed, when it replayed any. What the command said.
     */
    String recover(Path log) throws Exception {
        Path jfr = dir.resolve("recover.jfr");
        String recovered = journal || Files.exists(log.resolveSibling(log.getFileName() + ".spool-journal"))
                ? Forked.start(dir, "recover", List.of("-XX:StartFlightRecording=dumponexit=true,filename=" + jfr, "-jar",
                        Forked.agentJar()), null, "recover", log.toString()).awaitSuccess() : "(journaling off)";
        if (journal) {
            List<RecordedEvent> events = RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals("dev.spool.JournalRecovery")).toList();
            // one event when lines were replayed (a kill can land when every journaled line had reached the
            // file: a small ring the callers keep emptying, as in the full-ring test)
            assertEquals(recoveredLines(recovered) > 0 ? 1 : 0, events.size(), "JournalRecovery events: " + events);
            if (!events.isEmpty()) {
                assertEquals(log.toString(), events.get(0).getString("path"));
                assertEquals(recoveredLines(recovered), events.get(0).getLong("records"), events.get(0).toString());
            }
        }
        return recovered;
    }

    /** One host round logging into {@code log}, killed once about {@code lines} lines are acknowledged. */
    static long[] killedRound(Path dir, Path log, int round, int lines) throws Exception {
        Path acks = dir.resolve("acks-" + round);
        Forked host = Forked.start(dir, "host-" + round, Forked.agentArgs(""), Forked.hostClassPath(),
                JulJournalKillHost.class.getName(), log.toString(), acks.toString(), "" + round);
        try {
            host.awaitOutput("started", Duration.ofSeconds(60));
            Forked.awaitCondition(Duration.ofSeconds(60), () -> total(acks) >= lines || !host.process.isAlive());
            assertTrue(host.process.isAlive(), "host died\n" + host.describe());
        } finally {
            host.process.destroyForcibly();
            assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
        }
        return read(acks);
    }

    /**
     * The log's Sink bean shows the journal: {@code RecoveredAtOpen} (the lines the start of routing
     * replayed from the killed round) and {@code JournalPendingBytes} while lines wait for the sink.
     */
    private static void checkSinkBean(Forked host, Path log) throws Exception {
        try (JMXConnector jmx = host.connectJmx()) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName name = new ObjectName("dev.spool:type=Sink,name=" + ObjectName.quote(log.toString()));
            Forked.awaitCondition(() -> Forked.registered(server, name));
            SinkMXBean bean = JMX.newMXBeanProxy(server, name, SinkMXBean.class);
            long recovered = recoveredLines(Files.readString(host.stderr));
            assertTrue(recovered > 0, "the start of routing replayed the killed round's journal");
            assertEquals(recovered, bean.getRecoveredAtOpen(), "RecoveredAtOpen");
            Forked.awaitCondition(() -> bean.getJournalPendingBytes() > 0);
        }
    }

    /** The JUL lines replayed, by every {@code N journaled JUL lines recovered} in {@code output}. */
    static long recoveredLines(String output) {
        Matcher m = Pattern.compile("(\\d+) journaled JUL lines recovered").matcher(output);
        long n = 0;
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        return n;
    }
}
