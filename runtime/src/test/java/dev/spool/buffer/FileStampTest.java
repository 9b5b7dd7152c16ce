package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStampTest {
    @TempDir
    Path dir;

    @Test
    void shouldSeeASameSizeInPlaceChangeWithinTheSameClockTick() throws IOException {
        Path f = dir.resolve("s.json");
        Files.writeString(f, "{\"a\":1}");
        FileStamp stamp = FileStamp.load(f).stamp();
        assertTrue(stamp.racy(), "a stamp taken right after the write is racy");
        FileTime mtime = Files.getLastModifiedTime(f);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(5);
            raf.write('2');
        }
        Files.setLastModifiedTime(f, mtime); // same size, same time, same inode: only the hash tells
        assertFalse(stamp.unchangedOnDisk(f));
    }

    @Test
    void shouldNeedNoReadBackForItsOwnWriteYetSeeAnInPlaceChangeRightAfter() throws IOException {
        Path f = dir.resolve("own.json");
        byte[] content = "{\"a\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long mtime = FileStamp.ownMtimeNanos();
        AtomicFiles.write(f, content, false, mtime);
        FileStamp stamp = FileStamp.afterWrite(f, content, mtime);
        assertTrue(stamp.ownTime(), "ext4/tmpfs keep nanoseconds");
        assertFalse(stamp.racy());
        assertTrue(stamp.unchangedOnDisk(f));
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(5);
            raf.write('2'); // same size, same inode, within the same clock tick
        }
        assertFalse(stamp.unchangedOnDisk(f));
    }

    @Test
    void shouldTrustMetadataForAnOldFile() throws IOException {
        Path f = dir.resolve("old.json");
        Files.writeString(f, "[1,2,3]");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        FileStamp stamp = FileStamp.load(f).stamp();
        assertFalse(stamp.racy());
        assertTrue(stamp.unchangedOnDisk(f));
        Files.writeString(f, "[1,2,4]");
        assertFalse(stamp.unchangedOnDisk(f));
    }

    @Test
    void shouldTreatATouchWithSameContentAsUnchanged() throws IOException {
        Path f = dir.resolve("t.json");
        Files.writeString(f, "{}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        FileStamp stamp = FileStamp.load(f).stamp();
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis()));
        assertTrue(stamp.unchangedOnDisk(f));
    }

    @Test
    void shouldSeeCreationAndDeletion() throws IOException {
        Path f = dir.resolve("m.json");
        FileStamp missing = FileStamp.load(f).stamp();
        assertTrue(missing.unchangedOnDisk(f));
        Files.writeString(f, "{}");
        assertFalse(missing.unchangedOnDisk(f));
        FileStamp present = FileStamp.load(f).stamp();
        Files.delete(f);
        assertFalse(present.unchangedOnDisk(f));
    }
}
