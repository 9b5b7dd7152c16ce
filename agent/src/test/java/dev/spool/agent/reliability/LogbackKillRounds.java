package dev.spool.agent.reliability;

import dev.spool.agent.it.Forked;
import dev.spool.agent.reliability.LogbackKillEvents.Event;
import dev.spool.mbeans.SinkMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

/**
 * What {@link LogbackJournalKillIT}'s kill rounds leave for the checks: per round the last acknowledged
 * seqs, the log file's size at the kill and the killed pid; round 1's Sink bean readings; the problems
 * found on the way (collected, not thrown, so a failure shows every figure at once).
 */
final class LogbackKillRounds {
    final long seed;
    final long[][] acked;
    final long[] sizeAtKill;
    final long[] pids;
    final List<String> problems = new ArrayList<>();
    long recoveredAtOpen = -1;

    LogbackKillRounds(long seed, int kills) {
        this.seed = seed;
        this.acked = new long[kills + 1][];
        this.sizeAtKill = new long[kills + 1];
        this.pids = new long[kills];
    }

    /** Round 1's Sink bean of {@code log}: {@code RecoveredAtOpen} and {@code JournalPendingBytes} (problems, not thrown). */
    void readBean(Forked host, Path log) throws Exception {
        try (JMXConnector jmx = host.connectJmx()) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            // the log's Sink bean: name = the file, and for a Logback appender appender = its name
            ObjectName pattern = new ObjectName("dev.spool:type=Sink,name=" + ObjectName.quote(log.toString()) + ",*");
            long bound = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            Set<ObjectName> found = Set.of();
            while (found.size() != 1 && System.nanoTime() < bound) {
                Thread.sleep(20);
                found = server.queryNames(pattern, null);
            }
            if (found.size() != 1) {
                problems.add("round 1: not one Sink bean " + pattern + " in 20 s: " + found + "; all Sink beans: "
                        + server.queryNames(new ObjectName("dev.spool:type=Sink,*"), null));
                return;
            }
            ObjectName name = found.iterator().next();
            SinkMXBean bean = JMX.newMXBeanProxy(server, name, SinkMXBean.class);
            recoveredAtOpen = bean.getRecoveredAtOpen();
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (bean.getJournalPendingBytes() <= 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            if (bean.getJournalPendingBytes() <= 0) {
                problems.add("round 1's Sink bean " + name + " showed JournalPendingBytes 0 for 5 s of logging");
            }
        }
    }

    /** The killed round whose pid {@code side}'s name carries ({@code <log>.spool-recovered-<pid>-<token>}); -1: none. */
    int roundOf(Path log, Path side) {
        for (int r = 0; r < pids.length; r++) {
            if (side.getFileName().toString().startsWith(log.getFileName() + ".spool-recovered-" + pids[r] + "-")) {
                return r;
            }
        }
        return -1;
    }

    /**
     * {@code RecoveredAtOpen} read in round 1 against round 0's events that reached the file after its
     * kill (they start at or past the file's size then; the event the kill tore may be counted or not)
     * or its side file ({@code aside}: the file was empty).
     */
    void checkRecoveredAtOpen(List<Event> inFile, long fileEnd, long aside) {
        if (recoveredAtOpen < 0) {
            return;
        }
        long at = sizeAtKill[0];
        long replayed = inFile.stream().filter(e -> e.round() == 0 && e.offset() >= at).count() + aside;
        boolean torn = tornAt(at, inFile, fileEnd);
        if (recoveredAtOpen != replayed && !(torn && recoveredAtOpen == replayed + 1)) {
            problems.add("round 1's Sink bean: RecoveredAtOpen " + recoveredAtOpen + ", but " + replayed + " of round 0's events"
                    + " reached the file after its kill (at byte " + at + (torn ? ", one torn there" : "") + ") or its side file ("
                    + aside + ")");
        }
    }

    /** The killed rounds whose kill left the (never rolled) file ending inside an event: its recovery completed a torn one. */
    List<Integer> tornKills(List<Event> inFile, long fileEnd) {
        List<Integer> torn = new ArrayList<>();
        for (int r = 0; r < pids.length; r++) {
            if (tornAt(sizeAtKill[r], inFile, fileEnd)) {
                torn.add(r);
            }
        }
        return torn;
    }

    private static boolean tornAt(long at, List<Event> inFile, long fileEnd) {
        for (int i = 0; i < inFile.size(); i++) {
            long end = i + 1 < inFile.size() ? inFile.get(i + 1).offset() : fileEnd;
            if (inFile.get(i).offset() < at && end > at) {
                return true;
            }
        }
        return false;
    }
}
