package dev.spool.agent.reliability;

import static dev.spool.agent.reliability.KillAcks.read;
import static dev.spool.agent.reliability.KillAcks.total;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.it.Forked;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The hosts of one {@link LogbackJournalKillIT} test: writes the Logback configuration, starts
 * {@link LogbackJournalKillHost} in forked JVMs (with the agent, or without it for the positive control),
 * runs the kill rounds with the checks made while a host runs (its routing line, the journal beside the
 * file, round 1's Sink bean), runs {@code spool recover} after a kill when asked, and reads what each
 * round acknowledged ({@code acks-<round>}, a {@code MAP_SHARED} file the host writes).
 *
 * <p>Threads: the test's thread only; one per test, in its temp dir (the settings below are the test's:
 * set before the first host starts).
 */
final class LogbackKillHosts {
    static final int FINAL_LINES = 20;

    /** false: the hosts run without the agent, plain Logback writing on the caller's thread (the positive control). */
    static final boolean AGENT = Boolean.parseBoolean(System.getProperty("spool.reliability.logbackAgent", "true"));
    /** {@code -Dspool.reliability.logbackJournal=false}: the agent with {@code spool.sink.journal=false} (a negative control). */
    private static final boolean JOURNAL = Boolean.parseBoolean(System.getProperty("spool.reliability.logbackJournal", "true"));
    /** The host's Logback: {@code ""} ({@code logback.version}) or {@code logback-next} (the newest line). */
    private static final String LIBS = System.getProperty("spool.reliability.logbackLibs", "");

    private final Path dir;
    /** More JVM options for every host of the test. */
    final List<String> hostProperties = new ArrayList<>();
    /** Put before the pattern ({@code %killtag}: an application converter, so Logback encodes on the caller's thread). */
    String patternPrefix = "";
    /** How round 0's agent log must say the appender's events are encoded. */
    String encodedOn = "encoded on Spool's thread";
    /** After each kill, {@code spool recover FILE} replays the journal (an appender of bytes only), not the next start. */
    boolean recoverByCommand;

    LogbackKillHosts(Path dir) {
        this.dir = dir;
    }

    /** The kill rounds, then a last round that logs {@link #FINAL_LINES} per thread and stops cleanly. */
    LogbackKillRounds killRounds(Path log, Path config, boolean readBean, int kills) throws Exception {
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        Random random = new Random(seed);
        LogbackKillRounds rounds = new LogbackKillRounds(seed, kills);
        for (int round = 0; round < kills; round++) {
            Forked host = start(config, round, -1);
            int r = round;
            try {
                host.awaitOutput("started", Duration.ofSeconds(60));
                if (round == 0 && AGENT) {
                    assertTrue(host.err().contains("routing " + log + " through the sink, " + encodedOn),
                            "the appender's events are not " + encodedOn + ": the test checks the wrong path\n" + host.err());
                    checkJournal(log, rounds.problems);
                }
                if (round == 1 && readBean && AGENT) {
                    rounds.readBean(host, log);
                }
                long target = 200 + random.nextInt(20_000); // anywhere in capture, journal, encode, write, roll, trim
                Forked.awaitCondition(Duration.ofSeconds(60), () -> total(acks(r)) >= target || !host.process.isAlive());
                assertTrue(host.process.isAlive(), "host died (seed " + seed + ", round " + round + ")\n" + host.describe());
            } finally {
                host.process.destroyForcibly();
                assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
            }
            rounds.acked[round] = read(acks(round));
            rounds.sizeAtKill[round] = Files.exists(log) ? Files.size(log) : 0;
            rounds.pids[round] = host.pid();
            if (recoverByCommand && AGENT && JOURNAL) {
                recoverByCommand(log, round, rounds.problems);
            }
        }
        Forked last = start(config, kills, FINAL_LINES);
        last.awaitSuccess();
        rounds.acked[kills] = read(acks(kills));
        return rounds;
    }

    /** Runs {@code spool recover log} as an operator would after the kill of round {@code round}; the journal must be gone after. */
    private void recoverByCommand(Path log, int round, List<String> problems) throws Exception {
        Path journal = log.resolveSibling(log.getFileName() + ".spool-logback-journal");
        if (!Files.exists(journal)) {
            System.out.println("LogbackJournalKillIT: round " + round + ": no journal at the kill (nothing was pending)");
            return;
        }
        String said = Forked.start(dir, "recover-" + round, List.of("-jar", Forked.agentJar()), null, "recover",
                log.toString()).awaitSuccess();
        System.out.println("LogbackJournalKillIT: round " + round + ": spool recover: " + said.strip());
        if (!said.contains("journaled Logback lines recovered") || Files.exists(journal)) {
            problems.add("round " + round + ": spool recover did not replay the journal: " + said.strip());
        }
    }

    /** A Logback configuration: the logger {@code kill.logback} (only) into one appender of {@code log}. */
    Path config(Path log, String appenderClass, boolean append, String more) throws Exception {
        String xml = "<configuration>\n"
                + "  <conversionRule conversionWord=\"killtag\" converterClass=\"" + LogbackKillTagConverter.class.getName() + "\"/>\n"
                + "  <appender name=\"APP\" class=\"" + appenderClass + "\">\n"
                + "    <file>" + log + "</file>\n"
                + "    <append>" + append + "</append>\n"
                + "    " + more + "\n"
                + "    <encoder class=\"ch.qos.logback.classic.encoder.PatternLayoutEncoder\"><charset>UTF-8</charset>"
                + "<pattern>" + patternPrefix + LogbackJournalKillHost.PATTERN + "</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <logger name=\"" + LogbackJournalKillHost.LOGGER + "\" level=\"INFO\" additivity=\"false\">"
                + "<appender-ref ref=\"APP\"/></logger>\n"
                + "  <root level=\"OFF\"/>\n"
                + "</configuration>\n";
        Path file = dir.resolve("logback.xml");
        Files.writeString(file, xml, StandardCharsets.UTF_8);
        return file;
    }

    /**
     * The contract's journal beside the file while the host logs: {@code <file>.spool-logback-journal}, magic
     * {@code SPOOLLBK}. Awaited (bounded): with the folder listed every few ms the journal is put away while idle and
     * made again at the next line, and a look can fall between, or on a new one whose header is not written yet.
     */
    private static void checkJournal(Path log, List<String> problems) throws Exception {
        Path journal = log.resolveSibling(log.getFileName() + ".spool-logback-journal");
        String[] seen = {"no " + journal.getFileName() + " beside the file while logging"};
        try {
            Forked.awaitCondition(Duration.ofSeconds(20), () -> {
                byte[] head = new byte[8];
                try (java.io.InputStream in = Files.newInputStream(journal)) {
                    String magic = new String(head, 0, in.readNBytes(head, 0, 8), StandardCharsets.ISO_8859_1);
                    seen[0] = journal.getFileName() + " starts with '" + magic + "', not the magic SPOOLLBK";
                    return magic.equals("SPOOLLBK");
                } catch (java.io.IOException e) { // not there now (put away between two lines)
                    return false;
                }
            });
        } catch (AssertionError e) {
            problems.add("round 0: " + seen[0]);
        }
    }

    /** Starts round {@code round} of the host ({@code lines} &lt; 0: until killed). */
    Forked start(Path config, int round, long lines) throws Exception {
        List<String> jvm = new ArrayList<>(AGENT ? Forked.agentArgs("spool.log.level=debug") : List.of());
        jvm.add("-Dlogback.configurationFile=" + config);
        jvm.addAll(hostProperties);
        if (!JOURNAL) {
            jvm.add("-Dspool.sink.journal=false"); // the agent without its journals: acknowledged events are lost, the test fails
        }
        return Forked.start(dir, "host-" + round, jvm, Forked.hostClassPath(Forked.logback(LIBS)),
                LogbackJournalKillHost.class.getName(), acks(round).toString(), "" + round, "" + lines);
    }

    Path acks(int round) {
        return dir.resolve("acks-" + round);
    }
}
