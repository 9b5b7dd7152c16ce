package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: a routed Logback appender Spool does not defer journals its bytes at the defaults
 * ({@code spool.sink.journal.hostBytes}), and the journal exists only while it may hold lines, so an
 * application looking at its log folder finds what it finds without the agent. Logback's own rolling
 * tests read every file of the folder (25 of them failed with the journal there, {@code PeerSuiteIT});
 * {@code FileAppenderTest#testCreateParentFolders} removes the folder after stopping the appender.
 * A listing while another thread holds the appender's lock returns (Spool waits for that lock
 * {@code CallerEncodedJournals.PUT_AWAY_WAIT_MILLIS} only; an unbounded wait would hang the host, whose
 * lock holder waits for the listing) and finds the journal it could not put away: the one difference.
 */
class LogbackIdleJournalIT {

    @TempDir
    Path dir;

    @Test
    void shouldShowTheLogFolderAsPlainLogbackDoesWhileJournalingItsBytes() throws Exception {
        compare("echo");
    }

    /**
     * The same with an appender Spool defers (a pattern encoder: its captured events journaled): since 5 Dec its
     * journal is put away too while every line it took is in the file (before, a listing found it: two of Logback's
     * own tests, {@code TimeBasedRollingWithConfigFileTest#basic} and {@code #timeAndSize}, failed for it).
     */
    @Test
    void shouldShowTheLogFolderAsPlainLogbackDoesWhileJournalingDeferredEvents() throws Exception {
        compare("pattern");
    }

    /** The host's steps plain and under the agent ({@code mode}: the appender's encoder). */
    private void compare(String mode) throws Exception {
        List<String> plain = run("plain-" + mode, List.of(), mode);
        List<String> agent = run("agent-" + mode, Forked.agentArgs(""), mode);
        assertEquals(List.of("logged false", "nio-listing app.log", "after-listing false", "logged-again false",
                "file-listing app.log", "listing-while-locked app.log", "lines 25", "folder-removed true", "live-folder-removed true"),
                plain, "plain Logback");
        assertEquals(List.of("logged true", "nio-listing app.log", "after-listing false", "logged-again true",
                "file-listing app.log", "listing-while-locked app.log,app.log.spool-logback-journal", "lines 25",
                "folder-removed true", "live-folder-removed true"), agent,
                "under the agent: journaled while logging, never in a listing, removable once stopped");
    }

    private List<String> run(String name, List<String> jvm, String... mode) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        List<String> args = new java.util.ArrayList<>(List.of(folder.toString()));
        args.addAll(List.of(mode));
        String out = Forked.start(dir, name, jvm, Forked.hostClassPath(Forked.logback()),
                "dev.spool.agent.host.LogbackIdleJournalHost", args.toArray(String[]::new)).awaitSuccess();
        return out.lines().filter(l -> !l.startsWith("[spool]") && !l.isBlank()).toList();
    }
}
