package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.RecoveryTarget;

import static dev.spool.agent.jul.JulJournalFixture.Journaled;
import static dev.spool.agent.jul.JulJournalFixture.append;
import static dev.spool.agent.jul.JulJournalFixture.appendRecord;
import static dev.spool.agent.jul.JulJournalFixture.journal;
import static dev.spool.agent.jul.JulJournalFixture.line;
import static dev.spool.agent.jul.JulJournalFixture.sideOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where JUL journal recovery puts a killed run's lines ({@link RecoveryTarget}, issue 33): beside
 * a log file that is empty at the start of routing ({@code append=false}) or emptied since, or one
 * that attach takes over, exactly once even when the recovery itself is killed; never a journal this
 * process writes; never another recovery's side file.
 */
class JulRecoveryTargetTest {

    @TempDir
    Path dir;

    /**
     * The next run's {@code FileHandler(pattern, false)} truncated the file before its routing replays
     * the killed run's journal: plain JUL would have truncated those lines away with the file, so they
     * go beside it, named, not at the top of the new file (where they went before).
     */
    @Test
    void shouldWriteTheKilledRunsLinesBesideALogFileEmptiedSinceTheKill() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled written = journal(log, "written, not reached");
        written.journal().filePos(written.frame(), 7);
        appendRecord(written.journal(), "never written");
        Files.writeString(log, ""); // FileHandler(append=false) at the next start
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        Path side = sideOf(log);
        assertEquals(2, r.lines());
        assertEquals("", Files.readString(log));
        assertEquals(written.line() + line("never written"), Files.readString(side));
        assertTrue(r.note().contains(side.toString()), r.note());
        assertFalse(Files.exists(MappedLogJournal.journalOf(log)), "journal removed");
        assertFalse(Files.exists(side.resolveSibling(side.getFileName() + ".tmp")), "no temporary file left");
    }

    /**
     * An empty file whose killed writer had no line in it yet: at the start of routing the host's
     * handler may write from offset 0 (append=false), so the lines go beside it; {@code spool recover}
     * (no host) puts them into the file.
     */
    @Test
    void shouldPutLinesBesideAnEmptyFileOnlyAtTheStartOfRouting() throws Exception {
        Path routed = Files.writeString(dir.resolve("routed.log"), "");
        Journaled r = journal(routed, "never written");
        r.journal().abandon(); // as a killed process's: not this process's live journal
        assertEquals(1, JulJournalRecovery.recoverAtRoutingStart(routed, false).lines());
        assertEquals("", Files.readString(routed));
        assertEquals(r.line(), Files.readString(sideOf(routed)));
        Path cli = Files.writeString(dir.resolve("cli.log"), "");
        Journaled c = journal(cli, "never written");
        assertEquals(1, JulJournalRecovery.recover(cli, true).lines());
        assertEquals(c.line(), Files.readString(cli));
    }

    /**
     * The same empty file opened by a handler that appends ({@code FileHandler(pattern, true)}, or a rotating one
     * killed right after its rotation): its writes go after whatever recovery puts there, so the lines go into it,
     * where plain JUL had them.
     */
    @Test
    void shouldPutLinesIntoAnEmptyFileWhoseHandlerAppends() throws Exception {
        Path log = Files.writeString(dir.resolve("appending.log"), "");
        Journaled r = journal(log, "never written");
        r.journal().abandon();
        assertEquals(1, JulJournalRecovery.recoverAtRoutingStart(log, true).lines());
        assertEquals(r.line(), Files.readString(log));
        try (java.util.stream.Stream<Path> all = Files.list(dir)) {
            assertEquals(List.of(), all.filter(p -> p.getFileName().toString().contains(RecoveryTarget.SIDE_SUFFIX)).toList());
        }
    }

    /**
     * A rotating handler opened with {@code append=false} renamed the killed run's file to generation 1 and
     * opened an empty generation 0: lines found at their recorded offset in generation 1 reached it before
     * the kill and stay only there; the others go beside generation 0.
     */
    @Test
    void shouldSkipLinesTheRenamedFileHoldsWhenARotatingHandlerStartsAnew() throws Exception {
        Path log = dir.resolve("app.log.0");
        Journaled reached = journal(log, "reached the file, not yet done");
        reached.journal().filePos(reached.frame(), 0);
        long never = appendRecord(reached.journal(), "never written");
        reached.journal().abandon();
        Path old = Files.writeString(dir.resolve("app.log.1"), reached.line()); // the killed run's file, renamed
        Files.writeString(log, "");
        assertEquals(1, JulJournalRecovery.recoverAtRoutingStart(log, false, old).lines());
        assertEquals(reached.line(), Files.readString(old));
        assertEquals("", Files.readString(log));
        assertEquals(line("never written"), Files.readString(sideOf(log)), "only the line that had not reached the file");
        assertTrue(never >= 0);
    }

    /** Attach takes over a handler that wrote the file plainly since a killed run: that run's lines go beside it. */
    @Test
    void shouldPutAKilledRunsLinesBesideAFileTheRunTakenOverByAttachWrote() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "before\n");
        Journaled j = journal(log, "killed run");
        j.journal().filePos(j.frame(), 7);
        long reached = appendRecord(j.journal(), "reached the file, not yet done");
        j.journal().filePos(reached, 7);
        j.journal().filePos(j.frame(), 7 + line("reached the file, not yet done").length());
        append(log, line("reached the file, not yet done") + "this run, before attach\n");
        j.journal().abandon();
        assertEquals(1, JulJournalRecovery.recoverAtTakeover(log).lines());
        assertEquals("before\n" + line("reached the file, not yet done") + "this run, before attach\n", Files.readString(log));
        assertEquals(j.line(), Files.readString(sideOf(log)), "only the line that had not reached the log");
    }

    /** A journal this process writes (its handler routed already) is never replayed by a takeover or a start of routing. */
    @Test
    void shouldLeaveThisProcesssLiveJournalAlone() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "");
        Journaled j = journal(log, "live");
        assertEquals(0, JulJournalRecovery.recoverAtTakeover(log).lines());
        assertEquals(0, JulJournalRecovery.recoverAtRoutingStart(log, false).lines());
        assertTrue(Files.exists(MappedLogJournal.journalOf(log)));
        j.journal().delete();
    }

    /** The same pid twice (pid 1 in every container start): each diverting recovery gets a side file of its own. */
    @Test
    void shouldNotReuseAnEarlierRecoverysSideFileWhenThePidComesBack() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "");
        Journaled first = journal(log, "first run");
        first.journal().abandon();
        JulJournalRecovery.recoverAtRoutingStart(log, false);
        Journaled second = journal(log, "second run");
        second.journal().abandon();
        assertEquals(1, JulJournalRecovery.recoverAtRoutingStart(log, false).lines());
        try (java.util.stream.Stream<Path> all = Files.list(dir)) {
            List<String> texts = all.filter(p -> p.getFileName().toString().startsWith("app.log" + RecoveryTarget.SIDE_SUFFIX))
                    .sorted().map(p -> {
                        try {
                            return Files.readString(p);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }).toList();
            assertEquals(List.of(first.line(), second.line()), texts);
        }
    }

    /** A diverting recovery killed after its first line: the rerun diverts again and writes each line once. */
    @Test
    void shouldFinishADivertedRecoveryKilledHalfWayWritingEachLineOnce() throws Exception {
        Path log = Files.writeString(dir.resolve("app.log"), "");
        Journaled first = journal(log, "first");
        long second = appendRecord(first.journal(), "second");
        Path side = dir.resolve("app.log" + RecoveryTarget.SIDE_SUFFIX + ProcessHandle.current().pid() + "-1");
        Path tmp = side.resolveSibling(side.getFileName() + ".tmp");
        Files.writeString(tmp, first.line());       // the killed recovery wrote the first line,
        first.journal().filePos(first.frame(), 0);    // stored its offset in the side file,
        first.journal().filePos(second, 4096);      // the second's is still the killed writer's
        try (FileChannel ch = FileChannel.open(MappedLogJournal.journalOf(log), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, 1), MappedLogJournal.DIVERTED_OFFSET);
        }
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        assertEquals(1, r.lines());
        assertEquals(first.line() + line("second"), Files.readString(side));
        assertEquals("", Files.readString(log));
        assertFalse(Files.exists(tmp));
    }
}
