package dev.spool.agent.reliability;

import static dev.spool.agent.reliability.JulKillHosts.recoveredLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.it.Forked;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33 for routed JUL lines: a host logging through a {@code FileHandler} with
 * {@code SimpleFormatter} from two threads ({@link JulJournalKillHost}) is killed with SIGKILL at a
 * random point, round after round, all rounds appending to the same file; the next round's agent
 * replays the journal the killed one left at the start of routing, and {@code spool recover FILE}
 * the last one's. Then every acknowledged line (its logging call returned: recorded exactly in a
 * {@code MAP_SHARED} side file) is in the file exactly once, per thread in order, and every line
 * is whole. Kills: {@code -Dspool.reliability.julKills=N} (default 4, ~12 s with the bean and JFR checks; hundreds by hand),
 * seed {@code -Dspool.reliability.seed}; {@code -Dspool.reliability.julJournal=false} runs the
 * same with {@code spool.sink.journal=false} (acknowledged lines are then lost: the test fails).
 * Round 1 also reads the log's Sink bean over JMX ({@code RecoveredAtOpen}, {@code JournalPendingBytes});
 * the final {@code spool recover} runs under a JFR recording ({@code dev.spool.JournalRecovery}).
 */
class JulJournalKillIT {
    /** A line of the host's, its last word the non-ASCII {@link #word} (the host's {@code -Dkill.jul.word}). */
    private static final String LINE = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO kill\\.jul: r(\\d+) t([01]) ([\\d,]+) ";

    @TempDir
    Path dir;
    /** Each host starts without the agent and gets it by {@code spool attach} once logging (the open handler taken over). */
    private boolean attach;
    /** The handler's encoding ({@code -Dkill.jul.encoding} on the host), the files read in it. */
    private java.nio.charset.Charset charset = StandardCharsets.UTF_8;
    /** The last word of every host line (the host's default; a charset's own letters in its case). */
    private String word = JulJournalKillHost.word(null);

    @Test
    void shouldKeepEveryAcknowledgedJulLineOnceInOrderAcrossKills() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julKills", 4), List.of(), "");
    }

    /**
     * The agent attached to a running host ({@code spool attach PID}) whose {@code FileHandler} is open and logging:
     * the handler is taken over and journaled from its next record (before 5 Dec: never, when its first record came
     * before its file was routed, as at every attach); each round's attach takes over the journal the previous
     * round's kill left: the new run wrote before it, so the killed run's unwritten lines go beside the file, once,
     * in order (a side file per killed run, read after the file here).
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsWhenTheAgentIsAttachedToARunningHost() throws Exception {
        attach = true;
        killRounds(Integer.getInteger("spool.reliability.julAttachKills", 2), List.of("-XX:+EnableDynamicAgentLoading"), "");
    }

    /**
     * The same attach, the handler formatting with the application's own formatter (its bytes journaled as written):
     * the first records the woven {@code publish} sees come before the attach routes the handler's file, so its
     * journal is made when the file is routed (before 5 Dec: never, the first try having found no routed file).
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsWhenTheAgentIsAttachedToAHostFormattingItsOwnLines() throws Exception {
        attach = true;
        killRounds(Integer.getInteger("spool.reliability.julAttachKills", 2), List.of("-XX:+EnableDynamicAgentLoading"), "app");
    }

    /**
     * A handler in windows-1252, a single-byte charset journaled since 5 Dec ({@code JulJournalCharsets}; before,
     * such a handler was captured without a journal): the same checks, the files read in that charset.
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsInASingleByteCharset() throws Exception {
        killRoundsInCharset("windows-1252", null);
    }

    /**
     * A handler in Shift_JIS, a multi-byte charset journaled since 5 Dec (its encoder carries nothing from one line
     * to the next, {@code JulJournalCharsets}; before, such a handler was captured without a journal), its lines
     * ending in Japanese: the same checks, the files read in Shift_JIS.
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsInAMultiByteCharset() throws Exception {
        killRoundsInCharset("Shift_JIS", "ja");
    }

    /**
     * A handler in ISO-2022-JP, whose encoder keeps a shift state between lines, so a journal of records cannot
     * replay them: since 5 Dec such a handler is not captured (counted, {@code jul-charset}); it formats on the
     * caller's thread and its bytes are journaled as written (before, it was captured without a journal).
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsInACharsetWithShiftStates() throws Exception {
        killRoundsInCharset("ISO-2022-JP", "ja");
    }

    /**
     * {@code -Dspool.reliability.julCharsetKills} rounds (default 2) of a handler in {@code charsetName}, its lines
     * ending in the host's word {@code wordName} (null: its default), the files read in that charset.
     */
    private void killRoundsInCharset(String charsetName, String wordName) throws Exception {
        charset = java.nio.charset.Charset.forName(charsetName);
        word = JulJournalKillHost.word(wordName);
        List<String> host = new ArrayList<>(List.of("-Dkill.jul.encoding=" + charsetName));
        if (wordName != null) {
            host.add("-Dkill.jul.word=" + wordName);
        }
        killRounds(Integer.getInteger("spool.reliability.julCharsetKills", 2), host, "");
    }

    /**
     * A rotating {@code FileHandler} (append, 256 KiB per file, 1000 files: {@code app.log.0} the newest,
     * none deleted in the test's rounds; {@code -Dspool.reliability.julRotateLimit}, {@code julRotateCount}),
     * so kills land before, in and after rotations: the journal of {@code app.log.0} follows it across them. The files read oldest first hold every acknowledged line
     * once, per thread in order; a recovery puts the lines of an {@code app.log.0} a kill left empty (right
     * after a rotation) into it, the handler appending: no file beside it.
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineAcrossKillsWhenTheHandlerRotates() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julRotateKills", 3), rotation(), "rotate");
    }

    /**
     * The same rotating handler opened with {@code append=false}: each start first rotates, moving the killed
     * run's {@code app.log.0} to {@code app.log.1}, and opens an empty one; the killed run's lines that had not
     * reached its file go beside the new one, those that had (not yet marked done) stay only in {@code app.log.1}
     * (before 5 Dec they were in both: a recovery could not see the renamed file).
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineOnceAcrossKillsWhenARotatingHandlerStartsAnew() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julRotateKills", 3), rotation(), "rotate-truncate");
    }

    private static List<String> rotation() { // smaller files rotate more often
        return List.of(
                "-Dkill.jul.limit=" + Integer.getInteger("spool.reliability.julRotateLimit", JulJournalKillHost.ROTATE_LIMIT),
                "-Dkill.jul.count=" + Integer.getInteger("spool.reliability.julRotateCount", JulJournalKillHost.ROTATE_COUNT));
    }

    /**
     * The handler's default formatter, {@code XMLFormatter}: the journal holds what its records' XML needs
     * and the head's offset; the file holds exactly one head per run (a recovery adds one only where the
     * killed run's file lacked it) and whole records.
     */
    @Test
    void shouldKeepEveryAcknowledgedXmlRecordOnceInOrderAcrossKills() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julXmlKills", 3), List.of(), "xml");
    }

    /** The same with rotation: every generation begins with its head; a recovery heads an empty {@code app.log.0}. */
    @Test
    void shouldKeepEveryAcknowledgedXmlRecordAcrossKillsWhenTheHandlerRotates() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julXmlRotateKills", 2), rotation(), "rotate-xml");
    }

    /**
     * A formatter of the application's (Spool leaves the handler's records to it: formatted on the caller's
     * thread, bytes routed): the bytes the routed stream receives are journaled as they are, and replayed so.
     */
    @Test
    void shouldKeepEveryAcknowledgedLineOfAnApplicationsFormatterAcrossKills() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julAppKills", 3), List.of(), "app");
    }

    /** The same with rotation: the journal of the handler's bytes follows each next file from its start of routing. */
    @Test
    void shouldKeepEveryAcknowledgedLineOfAnApplicationsFormatterAcrossKillsWhenTheHandlerRotates() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julAppRotateKills", 2), rotation(), "rotate-app");
    }

    /**
     * A ring of 64 KiB, which the host's two logging threads fill many times a second: a caller that
     * finds it full writes what was captured and waits for the sink, so its line is journaled too
     * (before, it was captured without the journal and a kill lost it: 818 acknowledged lines over 3 kills).
     */
    @Test
    void shouldKeepEveryAcknowledgedJulLineWhenTheJournalRingFills() throws Exception {
        killRounds(Integer.getInteger("spool.reliability.julFullKills", 2), List.of("-Ddev.spool.jul.journalBytes=65536"), "");
    }

    /**
     * The run after a kill opens the file with {@code append=false}: plain JUL truncates the killed
     * run's lines away with the file, so the new file holds only the new run's lines; the killed run's
     * lines that had not reached the file go to {@code app.log.spool-recovered-<pid>} beside it (each
     * once, per thread in order, up to at least its last acknowledged line), never into the new file.
     */
    @Test
    void shouldKeepAKilledRunsLinesBesideTheFileTheNextRunTruncates() throws Exception {
        Path log = dir.resolve("app.log");
        long[] acked0 = JulKillHosts.killedRound(dir, log, 0, 20_000);
        Forked next = Forked.start(dir, "truncating", Forked.agentArgs(""), Forked.hostClassPath(),
                JulJournalKillHost.class.getName(), log.toString(), dir.resolve("acks-1").toString(), "1", "truncate");
        try {
            next.awaitOutput("started", Duration.ofSeconds(60));
        } finally {
            // SIGTERM: the agent's shutdown flushes the new run's lines. Through the handle: Process.destroy() also
            // closes the child's stdin, whose end makes the host's orphan guard halt the JVM in the middle of its
            // shutdown hooks (seen under load: only the new run's first line in the file, its journal left)
            next.process.toHandle().destroy();
            assertTrue(next.process.waitFor(30, TimeUnit.SECONDS), "not stopped");
        }
        String text = Files.readString(log, charset);
        assertFalse(text.contains(" r0 "), "a killed run's line in the truncated file");
        if (!text.contains(" r1 t0 0 " + word)) {
            throw new AssertionError("the new run's lines; the file (" + text.length() + " chars) starts: "
                    + text.substring(0, Math.min(300, text.length())) + "\n" + next.describe());
        }
        List<Path> sides;
        try (Stream<Path> files = Files.list(dir)) {
            sides = files.filter(p -> p.getFileName().toString().startsWith("app.log.spool-recovered-")).toList();
        }
        assertEquals(1, sides.size(), "one side file: " + sides);
        long[] first = {-1, -1};
        long[] next0 = {-1, -1};
        for (String line : Files.readString(sides.get(0), charset).split("\n")) {
            Matcher m = linePattern().matcher(line);
            assertTrue(m.matches() && m.group(1).equals("0"), "a whole round-0 line: '" + line + "'");
            int t = Integer.parseInt(m.group(2));
            long seq = Long.parseLong(m.group(3).replace(",", ""));
            assertTrue(next0[t] < 0 || seq == next0[t], "thread " + t + ": seq " + seq + " after " + (next0[t] - 1));
            first[t] = first[t] < 0 ? seq : first[t];
            next0[t] = seq + 1;
        }
        for (int t = 0; t < 2; t++) {
            assertTrue(next0[t] - 1 >= acked0[t], "thread " + t + ": acknowledged up to " + acked0[t] + ", the side file ends at "
                    + (next0[t] - 1) + " (from " + first[t] + ")");
        }
    }

    private Pattern linePattern() {
        return Pattern.compile(LINE + Pattern.quote(word));
    }

    private void killRounds(int kills, List<String> hostProperties, String rotation) throws Exception {
        boolean rotating = rotation.startsWith("rotate");
        boolean xml = rotation.endsWith("xml");
        long seed = Long.getLong("spool.reliability.seed", System.nanoTime());
        boolean journal = Boolean.parseBoolean(System.getProperty("spool.reliability.julJournal", "true"));
        Path log = rotating ? dir.resolve("app.log.0") : dir.resolve("app.log"); // the file routed and journaled
        JulKillHosts hosts = new JulKillHosts(dir, attach, journal, seed);
        long[][] acked = hosts.killRounds(kills, hostProperties, rotation, log);
        String recovered = hosts.recover(log);
        String where = "seed " + seed + ", " + kills + " kills, recover: " + recovered.strip();
        String text = text(log, rotation);
        if (attach) {
            // the next run logs plain before its attach, so a killed run's unwritten lines cannot follow its last
            // written one in the file: its takeover puts them beside it, one side file per killed run, whole
            try (Stream<Path> files = Files.list(dir)) {
                for (Path side : files.filter(p -> p.getFileName().toString().startsWith(log.getFileName() + ".spool-recovered-"))
                        .sorted().toList()) {
                    text += Files.readString(side, charset);
                }
            }
        }
        if (xml) {
            List<String> problems = new ArrayList<>();
            JulXmlRecords.Parsed parsed = JulXmlRecords.parse(text, problems);
            assertEquals(List.of(), problems.subList(0, Math.min(5, problems.size())), where);
            if (!rotating) {
                assertEquals(kills, parsed.heads(), "one head per run (" + where + ")");
            }
            text = parsed.lines();
        }
        long lines = check(log, text, acked, where);
        long replayed = recoveredLines(recovered);
        long acknowledged = 0;
        for (int round = 0; round < kills; round++) {
            replayed += recoveredLines(Files.readString(dir.resolve("host-" + round + ".err")));
            acknowledged += acked[round][0] + acked[round][1] + 2;
        }
        System.out.printf("JulJournalKillIT: seed %d, journal %s, mode '%s'%s, %s, %d kills: %d lines acknowledged, 0 lost, %d"
                + " lines in the files, %d replayed by recoveries%n", seed, journal, rotation, attach ? " attached" : "", charset,
                kills, acknowledged, lines, replayed);
        try (Stream<Path> left = Files.list(dir)) {
            List<String> names = left.map(p -> p.getFileName().toString()).filter(n -> n.contains("journal")).toList();
            assertEquals(List.of(), names, "journals left (seed " + seed + ")");
        }
    }

    /**
     * The log's text: {@code log} alone, or for a rotating handler every generation oldest first
     * ({@code app.log.N} .. {@code app.log.0}), then the files recoveries put beside {@code app.log.0}, oldest first.
     */
    private String text(Path log, String rotation) throws java.io.IOException {
        if (!rotation.startsWith("rotate")) {
            return Files.readString(log, charset);
        }
        List<Path> generations;
        List<Path> sides;
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.toList();
            generations = all.stream().filter(p -> p.getFileName().toString().matches("app\\.log\\.\\d+"))
                    .sorted(java.util.Comparator.comparingInt((Path p) -> Integer.parseInt(p.getFileName().toString().substring(8)))
                            .reversed()).toList();
            sides = all.stream().filter(p -> p.getFileName().toString().matches("app\\.log\\.0\\.spool-recovered-.*"))
                    .sorted(java.util.Comparator.comparingLong((Path p) -> Long.parseLong(p.getFileName().toString()
                            .replaceAll(".*-", "")))).toList();
        }
        assertTrue(generations.size() > 2, "the handler rotated: " + generations);
        if (!rotation.equals("rotate-truncate")) {
            // the handler appends: a recovery puts an app.log.0 a kill left empty (right after a rotation) lines into it
            assertEquals(List.of(), sides, "side files beside a file its handler appends to");
        }
        StringBuilder text = new StringBuilder();
        for (Path p : generations) {
            String t = Files.readString(p, charset);
            if (rotation.endsWith("xml")) { // every file the handler wrote begins with its head; a tail ends it or a head follows
                assertTrue(t.isEmpty() || t.startsWith(JulXmlRecords.HEAD), p + " begins: " + t.substring(0, Math.min(200, t.length())));
                for (int tail = t.indexOf(JulXmlRecords.TAIL); tail >= 0; tail = t.indexOf(JulXmlRecords.TAIL, tail + 1)) {
                    int after = tail + JulXmlRecords.TAIL.length(); // a kill between a rotation's close and its rename: the
                    assertTrue(after == t.length() || t.startsWith(JulXmlRecords.HEAD, after), // next run's head follows
                            p + ": a record after the tail at " + tail);
                }
            }
            text.append(t);
        }
        for (Path p : sides) {
            text.append(Files.readString(p, charset));
        }
        return text.toString();
    }

    /** Every acknowledged line once, per thread in order from 0, whole; lines past the acknowledgement allowed. */
    private long check(Path log, String content, long[][] acked, String where) throws Exception {
        long[][] next = new long[acked.length][2];
        List<String> problems = new ArrayList<>();
        int n = 0;
        long whole = 0;
        for (String line : content.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher m = linePattern().matcher(line);
            if (!m.matches()) {
                problems.add("line " + n + " not whole: '" + line + "'");
                continue;
            }
            int r = Integer.parseInt(m.group(1));
            int t = Integer.parseInt(m.group(2));
            long seq = Long.parseLong(m.group(3).replace(",", ""));
            if (seq != next[r][t]) {
                problems.add("line " + n + ": round " + r + " thread " + t + " seq " + seq + ", expected " + next[r][t]);
            }
            next[r][t] = seq + 1;
            whole++;
        }
        long lost = 0;
        for (int r = 0; r < acked.length; r++) {
            for (int t = 0; t < 2; t++) {
                if (next[r][t] <= acked[r][t]) {
                    lost += acked[r][t] + 1 - next[r][t];
                    problems.add("round " + r + " thread " + t + ": acknowledged up to " + acked[r][t] + ", the file ends at "
                            + (next[r][t] - 1));
                }
            }
        }
        assertTrue(problems.isEmpty(), lost + " acknowledged lines lost, " + problems.size() + " problems (" + where + "): "
                + problems.subList(0, Math.min(20, problems.size())));
        assertFalse(Files.exists(log.resolveSibling(log.getFileName() + ".spool-journal")), "journal left (" + where + ")");
        return whole;
    }
}
