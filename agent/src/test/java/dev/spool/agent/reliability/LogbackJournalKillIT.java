package dev.spool.agent.reliability;

import static dev.spool.agent.reliability.KillAcks.read;
import static dev.spool.agent.reliability.KillAcks.total;
import static dev.spool.agent.reliability.LogbackKillHosts.AGENT;
import static dev.spool.agent.reliability.LogbackKillHosts.FINAL_LINES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spool.agent.it.Forked;
import dev.spool.agent.reliability.LogbackKillEvents.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33 for Logback appenders whose encoding Spool defers: a host logging through SLF4J from two
 * threads into one appender ({@link LogbackJournalKillHost}: parameters, ready texts, MDC, every 50th
 * event with a stack trace of two causes) is killed with SIGKILL at a random point, round after round,
 * all rounds appending to the same file; the next round's agent replays the journal the killed one left
 * ({@code <file>.spool-logback-journal}) when the appender starts; a last round logs 20 events per
 * thread and stops Logback cleanly. Then every acknowledged event (its logging call returned: recorded
 * exactly in a {@code MAP_SHARED} side file) is in the log file once, per thread in order, whole
 * ({@link LogbackKillEvents}), never in a side file (the appender appends: the killed run's lines belong in
 * its file) unless the file was empty at the kill: then, as the contract says (and as JUL does), in
 * {@code <file>.spool-recovered-<killed pid>-<token>}. Kills: {@code -Dspool.reliability.logbackKills=N}
 * (default 4), seed {@code -Dspool.reliability.seed}; {@code -Dspool.reliability.logbackAgent=false} runs the
 * hosts without the agent (plain Logback writes each event on the caller's thread: the first two tests pass).
 * A failure lists, per round, the acknowledged, lost, misplaced (side file) and duplicated ids, and each
 * problem with its file and line.
 */
class LogbackJournalKillIT {
    @TempDir
    Path dir;
    /** Configures, starts and kills this test's hosts in {@link #dir}. */
    private LogbackKillHosts hosts;

    @BeforeEach
    void hosts() {
        hosts = new LogbackKillHosts(dir);
    }

    /**
     * A {@code FileAppender} (append): round 1 also reads the Sink bean ({@code RecoveredAtOpen} must be the
     * number of round 0's events that reached the file only after the kill; {@code JournalPendingBytes} &gt; 0
     * while logging), and a clean start after the last round must leave the file byte for byte as it was
     * (nothing replayed twice).
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventOnceInOrderAcrossKills() throws Exception {
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true, "");
        LogbackKillRounds rounds = hosts.killRounds(log, config, true, Integer.getInteger("spool.reliability.logbackKills", 4));
        byte[] before = Files.readAllBytes(log);
        hosts.start(config, rounds.acked.length, 0).awaitSuccess();
        byte[] after = Files.readAllBytes(log);
        int at = java.util.Arrays.mismatch(before, after);
        if (at >= 0) {
            rounds.problems.add("a clean start after the recovery changed " + log.getFileName() + " (" + before.length + " -> "
                    + after.length + " bytes, first difference at byte " + at + "): now '" + (at < after.length
                    ? new String(after, at, Math.min(300, after.length - at), StandardCharsets.UTF_8) : "(shortened)") + "'");
        }
        LogbackKillEvents events = new LogbackKillEvents();
        List<Event> inFile = events.read(log);
        verdict(rounds, events, List.of(log), inFile, true);
    }

    /**
     * Each round's host configures Logback, then resets its context and configures it again from the
     * same file, as Spring Boot does at its start: the first appender stops and a new one routes the
     * same file. Before 4 Dec the stopped appender's journal stayed (this process's, live), so the new
     * appender could not create its own: its events were not journaled and a kill lost them.
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAfterTheAppReconfiguresLogback() throws Exception {
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true, "");
        hosts.hostProperties.add("-Dkill.reconfigure=true");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, Integer.getInteger("spool.reliability.logbackReconfigureKills", 2));
        LogbackKillEvents events = new LogbackKillEvents();
        verdict(rounds, events, List.of(log), events.read(log), true);
    }

    /**
     * An application converter in the pattern: Spool does not defer the encoder, Logback encodes each event
     * on the caller's thread and only the bytes are routed; they are journaled as they are
     * ({@code MappedLogJournal.BYTES} frames; opt-in on 4 Dec, the default since 5 Dec). A {@code FileAppender}
     * and a time-based roll every second, while a third thread lists the folder every 5 ms: each listing finds
     * the journal idle or not, removes it or leaves it, and the next bytes make a new one.
     * Before, nothing journaled them (as {@code -Dspool.reliability.logbackJournal=false} still shows: seed 41,
     * 2 kills, 3,836 of 36,536 acknowledged events lost).
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhenLogbackEncodesOnTheCallersThread() throws Exception {
        hosts.patternPrefix = "%killtag";
        hosts.encodedOn = "encoded on the caller's thread";
        killRoundsWhileListing(Integer.getInteger("spool.reliability.logbackCallerKills", 1));
    }

    /**
     * The same while a thread lists the folder every 5 ms, the pattern Spool's own (the appender deferred, its
     * captured events journaled): since 5 Dec a listing puts a deferred appender's journal away too while every
     * line it took is in the file, and the next event makes a new one; a {@code FileAppender}, then a time-based
     * roll every second ({@code -Dspool.reliability.logbackListKills}, default 1 each).
     */
    @Test
    void shouldKeepEveryAcknowledgedDeferredEventAcrossKillsWhileTheAppListsTheLogFolder() throws Exception {
        killRoundsWhileListing(Integer.getInteger("spool.reliability.logbackListKills", 1));
    }

    /**
     * {@code kills} rounds of a {@code FileAppender}, then as many of a time-based roll every second, while a thread
     * of the host lists the log's folder every 5 ms; every acknowledged event once, in order, whole.
     */
    private void killRoundsWhileListing(int kills) throws Exception {
        hosts.hostProperties.add("-Dkill.listEveryMillis=5");
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true, "");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, kills);
        LogbackKillEvents events = new LogbackKillEvents();
        verdict(rounds, events, List.of(log), events.read(log), true);
        Files.delete(log);
        Path rolling = hosts.config(log, "ch.qos.logback.core.rolling.RollingFileAppender", true,
                "<rollingPolicy class=\"ch.qos.logback.core.rolling.TimeBasedRollingPolicy\"><fileNamePattern>"
                        + dir.resolve("app-%d{yyyy-MM-dd_HH-mm-ss}.log") + "</fileNamePattern></rollingPolicy>");
        checkRolled(hosts.killRounds(log, rolling, false, kills), log, Comparator.naturalOrder());
    }

    /**
     * {@code spool recover FILE} for an appender Spool does not defer (since 5 Dec): its journal holds only the
     * bytes Logback encoded, so the command replays them without the application; after each kill it runs
     * instead of the next start's recovery (which then finds no journal), and every acknowledged event is in
     * the file once, in order, whole.
     */
    @Test
    void shouldRecoverTheBytesJournalWithTheRecoverCommandAfterEachKill() throws Exception {
        hosts.patternPrefix = "%killtag";
        hosts.encodedOn = "encoded on the caller's thread";
        hosts.recoverByCommand = true;
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true, "");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, Integer.getInteger("spool.reliability.logbackCommandKills", 2));
        LogbackKillEvents events = new LogbackKillEvents();
        verdict(rounds, events, List.of(log), events.read(log), true);
    }

    /**
     * A deferred appender whose events take Logback's own path every second time: the pattern prints the
     * caller data (as nothing), the context's {@code frameworkPackages} name {@code java.}, and an application
     * filter takes the caller data of every second event before the appender writes it. Spool defers those
     * (journaled as events), the others Logback encodes on the caller's thread (journaled as bytes, since 4 Dec):
     * one journal, both kinds of frames, one order in the file.
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhenSomeEventsTakeLogbacksOwnPath() throws Exception {
        hosts.patternPrefix = "%replace(%line){'.*', ''}";
        hosts.hostProperties.add("-Dkill.frameworkPackages=java.");
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true,
                "<filter class=\"" + LogbackKillCallerFilter.class.getName() + "\"/>");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, Integer.getInteger("spool.reliability.logbackCallerKills", 1));
        LogbackKillEvents events = new LogbackKillEvents();
        verdict(rounds, events, List.of(log), events.read(log), true);
    }

    /**
     * Every fifth event carries a key-value pair whose value is of the application's own class, which the
     * journal cannot hold exactly: since 4 Dec such an event takes Logback's own path on the caller's thread
     * and its bytes are journaled as written (before, it was deferred without the journal and a kill could
     * lose it, counted {@code logback-journal-skipped}).
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhenTheJournalCannotHoldSomeEvents() throws Exception {
        hosts.hostProperties.add("-Dkill.appKvpEvery=5");
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", true, "");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, Integer.getInteger("spool.reliability.logbackCallerKills", 1));
        LogbackKillEvents events = new LogbackKillEvents();
        verdict(rounds, events, List.of(log), events.read(log), true);
    }

    /**
     * A time-based {@code RollingFileAppender} ({@code file} set, a new archive every second of the run):
     * every acknowledged event once across the archives (in name order) and the active file (last).
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhileTheFileRollsEverySecond() throws Exception {
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.rolling.RollingFileAppender", true,
                "<rollingPolicy class=\"ch.qos.logback.core.rolling.TimeBasedRollingPolicy\"><fileNamePattern>"
                        + dir.resolve("app-%d{yyyy-MM-dd_HH-mm-ss}.log") + "</fileNamePattern></rollingPolicy>");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, Integer.getInteger("spool.reliability.logbackKills", 4));
        checkRolled(rounds, log, Comparator.naturalOrder());
    }

    /**
     * Size-and-time-based rolling ({@code SizeAndTimeBasedRollingPolicy}, 256 KB: several rolls a round, each
     * checked on Spool's thread): issue 33 asks for it, the coming journal's contract names only the
     * {@code FileAppender} and time-based rolling, so it runs only with {@code -Dspool.reliability.logbackSizeKills=N}.
     * Archives {@code app-<day>.<i>.log} in index order, then the active file.
     */
    @Test
    void shouldKeepEveryAcknowledgedLogbackEventAcrossKillsWhileTheFileRollsBySize() throws Exception {
        int kills = Integer.getInteger("spool.reliability.logbackSizeKills", 0);
        assumeTrue(kills > 0, "size-based rolling is outside the Logback journal's contract: -Dspool.reliability.logbackSizeKills=N");
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.rolling.RollingFileAppender", true,
                "<rollingPolicy class=\"ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy\"><fileNamePattern>"
                        + dir.resolve("app-%d{yyyy-MM-dd}.%i.log") + "</fileNamePattern><maxFileSize>256KB</maxFileSize></rollingPolicy>");
        LogbackKillRounds rounds = hosts.killRounds(log, config, false, kills);
        checkRolled(rounds, log, Comparator.comparing((String n) -> n.substring(0, n.indexOf('.')))
                .thenComparingLong(n -> Long.parseLong(n.substring(n.indexOf('.') + 1, n.lastIndexOf('.')))));
    }

    /** Every acknowledged event once across the archives {@code app-*.log} (in {@code order} of their names), then {@code log}. */
    private void checkRolled(LogbackKillRounds rounds, Path log, Comparator<String> order) throws Exception {
        List<Path> files;
        try (Stream<Path> all = Files.list(dir)) {
            files = new ArrayList<>(all.map(p -> p.getFileName().toString()).filter(n -> n.matches("app-.*\\.log")).sorted(order)
                    .map(dir::resolve).toList());
        }
        assertTrue(!files.isEmpty(), "the appender never rolled: the test checks no archive");
        files.add(log);
        LogbackKillEvents events = new LogbackKillEvents();
        List<Event> all = new ArrayList<>();
        for (Path f : files) {
            all.addAll(events.read(f));
        }
        verdict(rounds, events, files, all, false);
    }

    /**
     * Round 1 opens the file with {@code append=false}: plain Logback truncates it, so the new file holds
     * only round 1's events (valid UTF-8, whole); round 0's events that had not reached the file by the
     * kill are in one {@code app.log.spool-recovered-<round 0's pid>-<token>} beside it, named in round 1's
     * agent log: what the file held at the kill followed by the side file is round 0's events 0, 1, 2, …
     * per thread, each once, up to at least the last acknowledged; the side file's first events may be ones
     * the file held at the kill (reached it, not yet marked done: the truncation removed them from the file),
     * each once, consecutive per thread (seen in a clean CI: 1,371 of 3,582).
     */
    @Test
    void shouldKeepAKilledRunsEventsBesideTheFileTheNextRunTruncates() throws Exception {
        assumeTrue(AGENT, "plain Logback truncates the killed run's events away");
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        Path log = dir.resolve("app.log");
        Path config = hosts.config(log, "ch.qos.logback.core.FileAppender", false, "");
        Forked host = hosts.start(config, 0, -1);
        long[][] acked = new long[2][];
        try {
            host.awaitOutput("started", Duration.ofSeconds(60));
            long target = 200 + new Random(seed).nextInt(20_000);
            Forked.awaitCondition(Duration.ofSeconds(60), () -> total(hosts.acks(0)) >= target || !host.process.isAlive());
            assertTrue(host.process.isAlive(), "host died (seed " + seed + ")\n" + host.describe());
        } finally {
            host.process.destroyForcibly();
            assertTrue(host.process.waitFor(30, TimeUnit.SECONDS), "not killed");
        }
        acked[0] = read(hosts.acks(0));
        Path atKill = Files.createDirectories(dir.resolve("at-kill")).resolve("app.log-at-kill"); // names the snapshot in messages
        Files.copy(log, atKill);
        Forked next = hosts.start(config, 1, FINAL_LINES);
        next.awaitSuccess();
        acked[1] = read(hosts.acks(1));
        List<Path> sides = sides(log);
        String where = "seed " + seed + ", round 0 pid " + host.pid() + ", side files " + sides;
        List<String> problems = new ArrayList<>();
        if (sides.size() != 1) {
            problems.add("not one side file with round 0's events: " + sides);
        }
        for (Path side : sides) {
            if (!side.getFileName().toString().startsWith("app.log.spool-recovered-" + host.pid() + "-")) {
                problems.add(side.getFileName() + " does not name the killed pid " + host.pid());
            }
            if (!next.err().contains(side.getFileName().toString())) {
                problems.add("round 1's agent log (host-1.err) does not name " + side.getFileName());
            }
        }
        LogbackKillEvents events = new LogbackKillEvents();
        LogbackKillEvents snapshot = new LogbackKillEvents(); // its torn end (the kill) is no problem of the file's
        List<Event> reached = new ArrayList<>(snapshot.read(atKill));
        if (!snapshot.problems.isEmpty() && !reached.isEmpty()) {
            reached.remove(reached.size() - 1); // torn by the kill: the side file must hold it whole
        }
        List<Event> round0 = new ArrayList<>(reached);
        // the new run truncated the file: lines it held but whose frames were not marked done yet (the sink wrote them
        // just before the kill) are beside it too, documented (RELIABILITY): allowed once, at the side file's start
        java.util.Set<String> atKillIds = new java.util.HashSet<>();
        reached.forEach(e -> atKillIds.add(e.round() + ":" + e.thread() + ":" + e.seq()));
        long alsoAtKill = 0;
        for (Path side : sides) {
            long[] last = {-1, -1};
            for (Event e : events.read(side)) {
                if (e.round() == 0 && last[e.thread()] >= 0 && e.seq() != last[e.thread()] + 1) {
                    problems.add(e.where() + ": r0 t" + e.thread() + " " + e.seq() + " after " + last[e.thread()] + " in the side file");
                }
                last[e.thread()] = e.round() == 0 ? e.seq() : last[e.thread()];
                if (atKillIds.contains(e.round() + ":" + e.thread() + ":" + e.seq())) {
                    alsoAtKill++;
                } else {
                    round0.add(e);
                }
            }
        }
        System.out.println("LogbackJournalKillIT: truncated file: " + reached.size() + " whole events at the kill, "
                + alsoAtKill + " of them also beside it (" + where + ")");
        List<Event> inFile = events.read(log);
        LogbackKillLedger ledger = new LogbackKillLedger(acked);
        ledger.inOrder(round0);
        ledger.inOrder(inFile);
        long lost = ledger.lost();
        problems.addAll(events.problems);
        problems.addAll(ledger.problems);
        inFile.stream().filter(e -> e.round() != 1).findFirst().ifPresent(e -> problems.add(
                e.where() + ": a killed run's event (r" + e.round() + " t" + e.thread() + " " + e.seq() + ") in the truncated file"));
        assertTrue(problems.isEmpty(), lost + " acknowledged events lost, " + problems.size() + " problems (" + where + ", "
                + reached.size() + " whole events in the file at the kill)" + ledger.figures() + "\n  "
                + String.join("\n  ", problems.subList(0, Math.min(30, problems.size()))));
    }

    /**
     * Checks the events of {@code files} (in that order, the active log file last) and of the side files
     * beside it: a killed round's events belong in the log file, except when the file was empty at the
     * kill (so when the next round routed it): the contract then puts them into
     * {@code <file>.spool-recovered-<killed pid>-<token>}, which counts as their place.
     */
    private void verdict(LogbackKillRounds rounds, LogbackKillEvents events, List<Path> files, List<Event> inOrder, boolean bean)
            throws Exception {
        LogbackKillLedger ledger = new LogbackKillLedger(rounds.acked);
        ledger.inOrder(inOrder);
        Path log = files.get(files.size() - 1);
        List<Path> sides = sides(log);
        long round0Aside = 0;
        for (Path side : sides) {
            int r = rounds.roundOf(log, side);
            List<Event> aside = events.read(side);
            if (r >= 0 && rounds.sizeAtKill[r] == 0) {
                ledger.inOrder(aside);
                round0Aside += r == 0 ? aside.size() : 0;
            } else {
                ledger.aside(aside);
                rounds.problems.add(side.getFileName() + ": a side file " + (r < 0 ? "naming no killed round's pid "
                        + java.util.Arrays.toString(rounds.pids) : "of round " + r + ", whose file held " + rounds.sizeAtKill[r]
                        + " bytes at its kill") + " (the appender appends: its events belong in " + log.getFileName() + ")");
            }
        }
        if (bean) {
            rounds.checkRecoveredAtOpen(inOrder, Files.size(log), round0Aside);
            System.out.println("LogbackJournalKillIT: rounds whose kill tore an event in the file (the recovery completed it): "
                    + rounds.tornKills(inOrder, Files.size(log)));
        }
        long lost = ledger.lost();
        List<String> problems = new ArrayList<>(events.problems);
        problems.addAll(ledger.problems);
        problems.addAll(rounds.problems);
        long acknowledged = 0;
        for (long[] a : rounds.acked) {
            acknowledged += a[0] + a[1] + 2;
        }
        String where = (AGENT ? "" : "WITHOUT the agent, ") + "seed " + rounds.seed + ", " + rounds.acked.length
                + " rounds (" + (rounds.acked.length - 1) + " killed), files "
                + files.stream().map(p -> p.getFileName().toString()).toList() + ", side files " + sides;
        List<String> journals;
        try (Stream<Path> left = Files.list(log.getParent())) {
            journals = left.map(p -> p.getFileName().toString()).filter(n -> n.contains("journal")).sorted().toList();
        }
        System.out.printf("LogbackJournalKillIT: %s: %d events acknowledged, %d lost, %d events in the files, journals left after"
                + " the clean stop %s%s%n", where, acknowledged, lost, inOrder.size(), journals, ledger.figures());
        assertTrue(problems.isEmpty(), lost + " of " + acknowledged + " acknowledged events lost, " + problems.size()
                + " problems (" + where + ")" + ledger.figures() + "\n  " + String.join("\n  ", problems.subList(0,
                Math.min(30, problems.size()))));
    }

    private static List<Path> sides(Path log) throws Exception {
        try (Stream<Path> files = Files.list(log.getParent())) {
            return files.filter(p -> p.getFileName().toString().startsWith(log.getFileName() + ".spool-recovered-")).sorted().toList();
        }
    }
}
