package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that reads its own routed log files right after logging (as Logback's own
 * {@code SizeAndTimeBasedFNATP_Test} does) finds every line it logged, with the agent at its
 * defaults as plain: {@code LogReadHost} logs through JUL and Logback, then reads each file by
 * several JDK paths (and a child process) at once; the counts are the same plain and with the
 * agent, and are the counts logged. The log files end the same (timestamps are not in the layouts).
 */
class LogReadBackIT {

    static final int ROUNDS = 5;
    static final int RECORDS = 300;

    @TempDir
    Path root;

    @Test
    void shouldFindEveryLoggedLineWhenTheHostReadsItsLogRightAfterLogging() throws Exception {
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path agent = Files.createDirectories(root.resolve("agent"));
        String plainSeen = run(plain, List.of());
        Forked routed = start(agent, Forked.agentArgs("spool.log.level=debug"));
        String agentSeen = routed.awaitSuccess();
        assertEquals(expected(), plainSeen, "plain: every line logged is read");
        assertEquals(plainSeen, agentSeen, "with the agent: the same reads find the same lines");
        assertTrue(routed.err().contains("routing " + agent.resolve("jul.log")), routed.err());
        assertTrue(routed.err().contains("routing " + agent.resolve("logback.log")), routed.err());
        assertTrue(routed.err().contains("JDK file classes"), "the JDK's file classes are woven: " + routed.err());
        for (String log : List.of("jul.log", "logback.log")) {
            assertEquals(Files.readString(plain.resolve(log)), Files.readString(agent.resolve(log)), log);
        }
    }

    /**
     * The host's thread is named {@code spool-...} (any application may name its threads so): its reads
     * still find every line it logged. Before Spool's rolls and drains carried a mark of their own
     * ({@code Hooks.markOnSpoolsBehalf}), a thread name starting with {@code spool-} was taken for one of
     * them, and such a thread's reads of a log folder found what was on disk only.
     */
    @Test
    void shouldFindEveryLoggedLineWhenTheReadingThreadIsNamedLikeSpoolsOwn() throws Exception {
        Path agent = Files.createDirectories(root.resolve("named"));
        List<String> jvm = new ArrayList<>(Forked.agentArgs(""));
        jvm.add("-Dlogread.thread=spool-reports-worker");
        String seen = start(agent, jvm).awaitSuccess();
        assertEquals(expected(), seen, "a host thread named spool-... reads every line it logged");
    }

    /**
     * The read returns: the record's exception's {@code getMessage()} needs a lock the reader holds.
     * Before issue 30 the thread formatting the record ran it while holding the handler's monitor,
     * and an unbounded drain deadlocked the host (then the drain's wait got its bound). Since issue
     * 30 the message and stack trace run at the call, on the logging thread, so nothing has to wait;
     * either way the host must finish with plain's output.
     */
    @Test
    void shouldNotDeadlockWhenTheReaderHoldsALockTheRecordsFormattingNeeds() throws Exception {
        Path plain = Files.createDirectories(root.resolve("lock-plain"));
        Path agent = Files.createDirectories(root.resolve("lock-agent"));
        String plainOut = Forked.start(root, "lock-plain", List.of(), Forked.hostClassPath(),
                "dev.spool.agent.host.LogReadLockHost", plain.toString()).awaitSuccess();
        Forked routed = Forked.start(root, "lock-agent", Forked.agentArgs("spool.sink.wait.millis=1000"),
                Forked.hostClassPath(), "dev.spool.agent.host.LogReadLockHost", agent.toString());
        String agentOut = routed.awaitSuccess();
        assertTrue(plainOut.contains("read returned"), plainOut);
        assertEquals(plainOut, agentOut, "the read returned and the log ends the same: " + routed.err());
    }

    /**
     * A handler that reads its own file inside its {@code publish} (holding its monitor) finds each
     * record it just wrote: the drain runs on the reader's thread, where the monitor is re-entrant.
     * On a drain thread of its own it waited out the bound for the monitor and missed the record.
     */
    @Test
    void shouldFindTheRecordJustWrittenWhenAHandlerReadsItsFileInsideItsPublish() throws Exception {
        Path plain = Files.createDirectories(root.resolve("tail-plain"));
        Path agent = Files.createDirectories(root.resolve("tail-agent"));
        String plainOut = Forked.start(root, "tail-plain", List.of(), Forked.hostClassPath(),
                "dev.spool.agent.host.LogReadInPublishHost", plain.toString(), "20").awaitSuccess();
        Forked routed = Forked.start(root, "tail-agent", Forked.agentArgs("spool.sink.wait.millis=500,spool.log.level=debug"),
                Forked.hostClassPath(), "dev.spool.agent.host.LogReadInPublishHost", agent.toString(), "20");
        String agentOut = routed.awaitSuccess();
        assertTrue(plainOut.startsWith("seen [1, 2, 3,"), plainOut);
        assertEquals(plainOut, agentOut, routed.err());
        assertTrue(routed.err().contains("JUL capture"), "the handler's records were captured: " + routed.err());
        assertFalse(routed.err().contains("log-read-wait") || routed.err().contains("waited"), routed.err());
    }

    private String run(Path dir, List<String> jvmArgs) throws Exception {
        return start(dir, jvmArgs).awaitSuccess();
    }

    private Forked start(Path dir, List<String> agentArgs) throws Exception {
        Path config = dir.resolve("logback.xml");
        Files.writeString(config, "<configuration>\n"
                + "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + dir.resolve("logback.log") + "</file>\n"
                + "    <encoder><pattern>%level %logger - %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"FILE\"/></root>\n"
                + "</configuration>\n", StandardCharsets.UTF_8);
        List<String> jvm = new ArrayList<>(agentArgs);
        jvm.add("-Dlogback.configurationFile=" + config);
        return Forked.start(root, dir.getFileName().toString(), jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.LogReadHost", dir.toString(), String.valueOf(ROUNDS), String.valueOf(RECORDS));
    }

    /** What plain reads find: every line logged so far, each round. */
    private static String expected() {
        StringBuilder s = new StringBuilder();
        long julLineBytes = 0;
        for (int r = 1; r <= ROUNDS; r++) {
            int lines = r * RECORDS;
            for (int i = 0; i < RECORDS; i++) {
                julLineBytes += ("INFO host.jul jul record " + r + "." + i + "\n").length();
            }
            s.append(r).append(" jul readAllLines ").append(lines).append('\n');
            s.append(r).append(" logback FileReader ").append(lines).append('\n');
            s.append(r).append(" jul RandomAccessFile length ").append(julLineBytes).append('\n');
            s.append(r).append(" logback copy ").append(lines).append('\n');
            s.append(r).append(" logback lines ").append(lines).append('\n');
            if (r == 1) {
                s.append(r).append(" jul child process ").append(lines).append('\n');
            }
        }
        return s.toString();
    }
}
