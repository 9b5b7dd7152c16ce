package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A buffered snapshot ends like the host's own write of the whole file (issue 10, items 7–10 and
 * 12): a new file exists at once, a write the host's own code would make fail or end differently is
 * refused (the host then writes), the last write wins over the host's direct writes, a refusal
 * supersedes what was buffered before, and a touch is not a change.
 */
class SnapshotLikePlainWriteTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() throws FlushException {
        buffer.close();
    }

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    /** An existing file last changed a minute ago (its stamp is not racy). */
    private Path existing(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        return f;
    }

    private List<String> conflictFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(AtomicFiles.CONFLICT_MARK)).toList();
        }
    }

    @Test
    void shouldCreateANewFileWithItsContentBeforeThePutReturns() throws IOException {
        Path f = dir.resolve("new.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")));
        assertEquals("{\"v\":1}", Files.readString(f), "a new file exists, complete, once the call returns");
        assertEquals(0, buffer.metrics().dirtyEntries());
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")));
        assertEquals("{\"v\":1}", Files.readString(f), "an existing file is written at the flush");
        assertEquals("{\"v\":2}", new String(buffer.readBuffered(f), UTF_8));
        buffer.flush();
        assertEquals("{\"v\":2}", Files.readString(f));
    }

    @Test
    void shouldSeeAnotherWriteToAFileItCreatedAtTheCall() throws IOException {
        Path f = dir.resolve("created.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")), "created at the call, stamped without a stat");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")), "buffered on that stamp");
        Files.writeString(f, "{\"v\":9}"); // someone else's write after the last put, same size
        assertNull(buffer.readBuffered(f), "the later direct write is what reads see");
        FlushReport r = buffer.flushWithReport();
        assertEquals("{\"v\":9}", Files.readString(f), "never overwritten");
        assertEquals(1, r.conflicts().size());
        assertEquals("{\"v\":2}", Files.readString(r.conflicts().get(0).conflictFile()));
    }

    @Test
    void shouldServeTheDiskAfterASameSizeDirectWriteToAFileItJustCreated() throws IOException {
        Path f = dir.resolve("created-read.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")), "created at the call, stamped by size and content only");
        assertEquals("{\"v\":1}", new String(buffer.readBuffered(f), UTF_8), "unchanged: served from memory");
        Files.writeString(f, "{\"v\":7}"); // same size, and no time of ours to compare: only the content tells
        assertNull(buffer.readBuffered(f), "the later direct write is what reads see");
        assertEquals("{\"v\":7}", Files.readString(f));
    }

    @Test
    void shouldNoticeADirectWriteBetweenTwoPutsOfAFileItCreated() throws IOException {
        Path f = dir.resolve("created-then-direct.json");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")));
        Files.writeString(f, "{\"v\":8}"); // same size: only the modification time tells
        assertTrue(buffer.putSnapshot(f, b("{\"v\":2}")), "re-based on the direct write, then buffered");
        FlushReport r = buffer.flushWithReport();
        assertEquals(List.of(), r.conflicts(), "the put came after the direct write: it wins, no conflict");
        assertEquals("{\"v\":2}", Files.readString(f));
    }

    @Test
    void shouldRefuseAMissingFolderAFolderAndAHardLinkedFile() throws IOException {
        assertFalse(buffer.putSnapshot(dir.resolve("missing/x.json"), b("{}")));
        Path plainFile = existing("plain", "not a folder");
        assertFalse(buffer.putSnapshot(plainFile.resolve("x.json"), b("{}")), "a file as the folder");
        assertFalse(buffer.putSnapshot(Files.createDirectory(dir.resolve("folder.json")), b("{}")));
        Path linked = existing("linked.json", "[0]");
        Files.createLink(dir.resolve("other-name.json"), linked);
        assertFalse(buffer.putSnapshot(linked, b("[1]")), "a rename would detach one of two hard links");
        assertEquals(0, buffer.metrics().entries());
        assertFalse(Files.exists(dir.resolve("missing")));
    }

    @Test
    void shouldRememberARefusalOnlyWhileTheFileKeepsWhatRefusedIt() throws IOException {
        Path linked = existing("remembered.json", "[0]");
        Path other = Files.createLink(dir.resolve("remembered-too.json"), linked);
        assertFalse(buffer.putSnapshot(linked, b("[1]")));
        Files.writeString(linked, "[1]"); // the host's own write, in place, as after every refusal
        long examined = ReplaceRefusal.EXAMINED.sum();
        assertFalse(buffer.putSnapshot(linked, b("[2]")), "still two links: refused again");
        assertEquals(examined, ReplaceRefusal.EXAMINED.sum(), "remembered: not examined again");
        Files.setPosixFilePermissions(linked, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw----"));
        assertFalse(buffer.putSnapshot(linked, b("[3]")), "a new mode: examined again, and refused (two links)");
        assertEquals(examined + 1, ReplaceRefusal.EXAMINED.sum());
        Files.delete(other);
        assertTrue(buffer.putSnapshot(linked, b("[4]")), "one link now: examined afresh and buffered");
        buffer.flush();
        assertEquals("[4]", Files.readString(linked));
    }

    @Test
    void shouldBufferAFileReplacedByANewOneRightAfterARefusal() throws IOException {
        Path linked = existing("replaced.json", "[0]");
        Files.createLink(dir.resolve("replaced-link.json"), linked);
        assertFalse(buffer.putSnapshot(linked, b("[1]")));
        Path fresh = existing("fresh.tmp", "[0]");
        Files.move(fresh, linked, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertTrue(buffer.putSnapshot(linked, b("[2]")), "another inode, one link: not the refused file");
        buffer.flush();
        assertEquals("[2]", Files.readString(linked));
    }

    @Test
    void shouldForgetARefusalWithinTheCachesSecond() throws Exception {
        Path linked = existing("lapsing.json", "[0]");
        Files.createLink(dir.resolve("lapsing-link.json"), linked);
        assertFalse(buffer.putSnapshot(linked, b("[1]")));
        assertTrue(ReplaceRefusal.stillRefused(linked));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ReplaceRefusal.stillRefused(linked)) { // awaits the lapse; a memory that never lapsed fails
            assertTrue(System.nanoTime() < deadline, "still remembered after 10 s");
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        long examined = ReplaceRefusal.EXAMINED.sum();
        assertFalse(buffer.putSnapshot(linked, b("[2]")));
        assertEquals(examined + 1, ReplaceRefusal.EXAMINED.sum(), "examined again once it lapsed");
    }

    @Test
    void shouldRefuseAFileOfAnotherOwnerOrGroup() throws Exception {
        assumeTrue(new String(Files.readAllBytes(Path.of("/proc/self/status")), UTF_8).contains("\nUid:\t0\t"),
                "only root can give a file to someone else");
        Path theirs = existing("theirs.json", "[0]");
        Files.setAttribute(theirs, "unix:uid", 65534);
        assertFalse(buffer.putSnapshot(theirs, b("[1]")), "a rename would make the file ours");
        Path group = existing("group.json", "[0]");
        Files.setAttribute(group, "unix:gid", 65534);
        assertFalse(buffer.putSnapshot(group, b("[1]")), "a rename would change the file's group");
    }

    @Test
    void shouldRefuseABindMountedFile() throws Exception {
        Path source = existing("source.json", "[0]");
        Path target = existing("mounted.json", "[9]");
        Process mount = new ProcessBuilder("mount", "--bind", source.toString(), target.toString()).inheritIO().start();
        assumeTrue(mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0, "bind mounts need privileges");
        try {
            ReplaceRefusal.forgetMounts(); // the mount table is re-read at most once a second
            assertFalse(buffer.putSnapshot(target, b("[1]")), "a rename onto a mount point fails with EBUSY");
        } finally {
            new ProcessBuilder("umount", target.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldLetTheHostsLastWriteWin() throws IOException {
        Path f = existing("last.json", "{\"v\":0}");
        Path backup = existing("backup.json", "{\"v\":\"backup\"}");
        buffer.putSnapshot(f, b("{\"v\":1}"));
        Files.writeString(f, "{\"v\":\"direct\"}");
        assertNull(buffer.readBuffered(f), "the direct write is the later one: reads see the disk");
        buffer.putSnapshot(f, b("{\"v\":2}"));
        assertEquals("{\"v\":2}", new String(buffer.readBuffered(f), UTF_8));
        FlushReport r = buffer.flushWithReport();
        assertEquals(List.of(), r.conflicts());
        assertEquals("{\"v\":2}", Files.readString(f));
        buffer.putSnapshot(f, b("{\"v\":3}"));
        Files.copy(backup, f, StandardCopyOption.REPLACE_EXISTING);
        buffer.putSnapshot(f, b("{\"v\":4}"));
        assertEquals(List.of(), buffer.flushWithReport().conflicts());
        assertEquals("{\"v\":4}", Files.readString(f));
        assertEquals(List.of(), conflictFiles());
        assertEquals(0, buffer.metrics().conflicts());
    }

    @Test
    void shouldDropTheOlderSnapshotWhenAPutIsRefused() throws IOException {
        Path big = existing("big.json", "[0]");
        buffer.putSnapshot(big, b("[1]"));
        buffer.setCapacityBytes(4);
        assertFalse(buffer.putSnapshot(big, b("[1,2,3,4]")), "larger than capacity.bytes");
        assertNull(buffer.readBuffered(big), "the refused write supersedes the buffered one");
        Files.writeString(big, "[1,2,3,4]"); // the host's own write
        buffer.setCapacityBytes(BufferSettings.DEFAULT_CAPACITY_BYTES);

        Path off = existing("off.json", "[0]");
        buffer.putSnapshot(off, b("[1]"));
        buffer.setEnabled(false);
        buffer.setEnabled(true);
        buffer.putSnapshot(off, b("[2]"));
        buffer.setEnabled(false);
        assertFalse(buffer.putSnapshot(off, b("[3]")));
        assertNull(buffer.readBuffered(off));
        Files.writeString(off, "[3]");
        buffer.setEnabled(true);

        Path linked = existing("linked.json", "[0]");
        buffer.putSnapshot(linked, b("[1]"));
        Files.writeString(linked, "[0]"); // same size, new time: re-stamped at the next put
        Files.createLink(dir.resolve("second-name.json"), linked);
        assertFalse(buffer.putSnapshot(linked, b("[2]")), "now hard-linked: refused");
        assertNull(buffer.readBuffered(linked));
        Files.writeString(linked, "[2]");

        FlushReport r = buffer.flushWithReport();
        assertEquals(List.of(), r.conflicts());
        assertEquals("[1,2,3,4]", Files.readString(big));
        assertEquals("[3]", Files.readString(off));
        assertEquals("[2]", Files.readString(linked));
        assertEquals(List.of(), conflictFiles());
    }

    @Test
    void shouldNotTakeATouchOrASameContentRewriteForAChange() throws IOException {
        Path touched = existing("touched.json", "{\"v\":0}");
        buffer.putSnapshot(touched, b("{\"v\":1}"));
        Files.setLastModifiedTime(touched, FileTime.fromMillis(System.currentTimeMillis()));
        Path rewritten = existing("rewritten.json", "{\"v\":0}");
        buffer.putSnapshot(rewritten, b("{\"v\":1}"));
        Files.writeString(rewritten, "{\"v\":0}");
        Files.setLastModifiedTime(rewritten, FileTime.fromMillis(System.currentTimeMillis() - 30_000));
        assertEquals("{\"v\":1}", new String(buffer.readBuffered(touched), UTF_8));
        FlushReport r = buffer.flushWithReport();
        assertEquals(List.of(), r.conflicts());
        assertEquals(2, r.filesWritten());
        assertEquals("{\"v\":1}", Files.readString(touched));
        assertEquals("{\"v\":1}", Files.readString(rewritten));
        assertEquals(List.of(), conflictFiles());
    }

    @Test
    void shouldStillDivertAChangeMadeAfterTheLastPutAndKeepTheDisk() throws IOException {
        Path f = existing("after.json", "{\"v\":0}");
        buffer.putSnapshot(f, b("{\"v\":1}"));
        Files.writeString(f, "{\"v\":\"theirs\"}");
        FlushReport r = buffer.flushWithReport();
        assertEquals(1, r.conflicts().size(), "their write came last: the disk keeps it, ours goes beside it");
        assertEquals("{\"v\":\"theirs\"}", Files.readString(f));
        assertEquals("{\"v\":1}", Files.readString(r.conflicts().get(0).conflictFile()));
    }
}
