package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32C;

/**
 * What a file looked like when the buffer last read or wrote it: existence, size, modification
 * time in nanoseconds, file key (inode) and a CRC32C of the content.
 *
 * <p>"Racy" stamps (as in git): a file system stamps modification times from a coarse clock, so a
 * second change within the same clock tick as the stamp leaves size and time unchanged. A stamp
 * taken less than {@link #racyWindowNanos} after the file's modification time is racy; for it,
 * {@link #unchangedOnDisk} also compares the content hash.
 *
 * <p>Own writes are never racy: {@link AtomicFiles#write} gives the temp file, before the rename, a
 * modification time of our choosing ({@link #ownMtimeNanos}: now, with random sub-microsecond
 * digits). A later change by anyone is stamped by the file system clock and cannot carry that exact
 * value (short of deliberately copying it), so size + mtime + inode settle the question without
 * reading the file back. {@code ownTime} records that the file system kept the value exactly (a
 * coarse file system rounds it: then the stamp is judged like any other).
 *
 * <p>Every stamp of an existing file carries the CRC of its content ({@link #load} and
 * {@link #afterWrite} both know it), so a {@code touch} or a rewrite of the same bytes — new time,
 * same size — is told apart from a real change by the hash, never taken for one. Immutable.
 */
record FileStamp(boolean exists, long size, long mtimeNanos, Object fileKey, long crc, long takenAtNanos,
                 boolean ownTime) {

    static final FileStamp MISSING = new FileStamp(false, -1, 0, null, 0, 0, false);
    /** The modification time of a {@link #created} stamp: never a file's (so its first check reads the content). */
    static final long UNKNOWN_TIME = Long.MIN_VALUE;
    static final long FINE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final long COARSE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** Content and stamp read together; {@code content} is null for a missing file. */
    record Loaded(byte[] content, FileStamp stamp) {}

    static long crcOf(byte[] content) {
        CRC32C c = new CRC32C();
        c.update(content, 0, content.length);
        return c.getValue();
    }

    static long nowNanos() {
        Instant n = Instant.now();
        return n.getEpochSecond() * 1_000_000_000L + n.getNano();
    }

    /**
     * Reads the file's content with a stamp that matches it (retries if it changes meanwhile).
     * @throws FileSystemException when the path names something other than a regular file
     */
    static Loaded load(Path file) throws IOException {
        for (int attempt = 0; ; attempt++) {
            BasicFileAttributes before = attrs(file);
            if (before == null) return new Loaded(null, MISSING);
            if (!before.isRegularFile()) {
                throw new FileSystemException(file.toString(), null, "not a regular file");
            }
            long taken = nowNanos();
            byte[] content = readContent(file);
            if (content == null) {
                if (attempt >= 3) throw new NoSuchFileException(file.toString());
                continue;
            }
            BasicFileAttributes after = attrs(file);
            if ((after != null && sameMeta(before, after) && after.size() == content.length) || attempt >= 3) {
                return new Loaded(content, of(before, crcOf(content), taken));
            }
        }
    }

    /**
     * This stamp if the file still matches it by metadata (and the stamp is not racy), else a fresh
     * stamp, content hash included, of the file as it is now: one {@code lstat} when nothing changed;
     * an unchanged file whose check needed its content (a created or racy stamp) is read once.
     */
    FileStamp refreshed(Path file) throws IOException {
        if (stillMissing(file)) return this;
        BasicFileAttributes a = attrs(file);
        if (!exists && a == null) return this;
        if (exists && a != null && !racy() && a.size() == size && sameTimeAndKey(a)) {
            return fileKey != null ? this : new FileStamp(true, size, mtimeNanos, a.fileKey(), crc, takenAtNanos, ownTime);
        }
        FileStamp same = verified(file, a);
        return same != null ? same : load(file).stamp();
    }

    private boolean sameTimeAndKey(BasicFileAttributes a) {
        return a.lastModifiedTime().to(TimeUnit.NANOSECONDS) == mtimeNanos
                && (fileKey == null || Objects.equals(a.fileKey(), fileKey)); // null: created, inode not yet seen
    }

    /** A modification time for a file we write: now (microseconds) with random nanosecond digits. */
    static long ownMtimeNanos() {
        return nowNanos() / 1000 * 1000 + ThreadLocalRandom.current().nextInt(1, 1000);
    }

    /** The stamp of a file this process just wrote with {@code content}, given mtime {@code ownMtime}. */
    static FileStamp afterWrite(Path file, byte[] content, long ownMtime) throws IOException {
        return afterWrite(file, attrs(file), content, ownMtime);
    }

    /**
     * As {@link #afterWrite(Path, byte[], long)} from attributes {@code a} the caller read just after
     * the write. The content's hash is computed only when the stamp needs it (the file system did not
     * keep our own modification time): a stamp with our own time is judged by its metadata alone.
     */
    static FileStamp afterWrite(Path file, BasicFileAttributes a, byte[] content, long ownMtime) throws IOException {
        if (a == null) throw new NoSuchFileException(file.toString(), null, "vanished right after it was written");
        long mtime = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        boolean own = mtime == ownMtime;
        return new FileStamp(true, a.size(), mtime, a.fileKey(), own ? 0 : crcOf(content), nowNanos(), own);
    }

    /**
     * The stamp of a file this process just created with {@code content}, taken without a
     * {@code stat} and without setting its modification time: size and content hash only
     * ({@code mtimeNanos} {@link #UNKNOWN_TIME}, no inode). No file's time matches it, so the first
     * check of the file reads it back and compares the hash: a write-once file (never checked
     * again) costs no more than its create, and a file written or read again pays one read at its
     * next check, which then stamps it in full ({@link #learnedFrom}).
     */
    static FileStamp created(byte[] content) {
        return new FileStamp(true, content.length, UNKNOWN_TIME, null, crcOf(content), nowNanos(), false);
    }

    /** Whether this stamp is {@code created} (a {@link #created} stamp) read back in full, same size and content. */
    boolean learnedFrom(FileStamp created) {
        return created.fileKey == null && created.mtimeNanos == UNKNOWN_TIME && exists && size == created.size
                && crc == created.crc;
    }

    private static FileStamp of(BasicFileAttributes a, long crc, long taken) {
        return new FileStamp(true, a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.fileKey(), crc, taken, false);
    }

    private static boolean sameMeta(BasicFileAttributes x, BasicFileAttributes y) {
        return x.size() == y.size() && x.lastModifiedTime().equals(y.lastModifiedTime())
                && Objects.equals(x.fileKey(), y.fileKey());
    }

    /**
     * The file's attributes (one {@code lstat}), or null if it does not exist. On a POSIX file
     * system they are {@link PosixFileAttributes} (the same system call), so a caller gets the mode
     * without a second stat.
     */
    static BasicFileAttributes attrs(Path file) throws IOException {
        try {
            if (posix) {
                try {
                    return Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (UnsupportedOperationException notPosix) {
                    posix = false;
                }
            }
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Whether attributes can be read as POSIX ones (false once a file system said no). */
    private static volatile boolean posix = true;

    /** The permissions in {@code a} of a regular file, or null (no file, not POSIX, a symlink). */
    static Set<PosixFilePermission> modeIn(BasicFileAttributes a) {
        return a instanceof PosixFileAttributes p && a.isRegularFile() ? p.permissions() : null;
    }

    /** Clock ticks this coarse hide same-tick changes; whole-second times mean a coarse file system. */
    long racyWindowNanos() {
        return mtimeNanos % 1_000_000_000L == 0 ? COARSE_WINDOW_NANOS : FINE_WINDOW_NANOS;
    }

    boolean racy() {
        return exists && !ownTime && mtimeNanos != UNKNOWN_TIME && takenAtNanos - mtimeNanos < racyWindowNanos();
    }

    /**
     * Whether the file on disk still holds what this stamp describes. Metadata first; the content
     * hash only when the stamp is racy or metadata differ with an equal size (a touch, or someone
     * rewrote the same bytes).
     */
    boolean unchangedOnDisk(Path file) throws IOException {
        return unchangedOnDisk(file, attrs(file));
    }

    /** As {@link #unchangedOnDisk(Path)}, given the attributes {@code a} the caller just read (null: no file). */
    boolean unchangedOnDisk(Path file, BasicFileAttributes a) throws IOException {
        return verified(file, a) != null;
    }

    /**
     * The stamp to keep for a file found unchanged, or null when it changed: this stamp when its
     * metadata settle it (one {@code lstat}); when the check had to read the content (a
     * {@link #created} stamp, which has no time, or a racy one) and found it the same, a full stamp
     * of the file taken with that one read (its time and inode, this size and hash), so the next
     * check is metadata only again. The file is read at most once per call, never a second time to
     * re-stamp it.
     */
    FileStamp verified(Path file) throws IOException {
        if (stillMissing(file)) return this;
        return verified(file, attrs(file));
    }

    /**
     * A missing file's stamp, and still nothing there by {@code access(F_OK)}: one system call and
     * no exception, where an {@code lstat} of the missing name costs the JDK's
     * {@code NoSuchFileException} (~10 us, see {@link RealPaths}). A dangling symlink made meanwhile
     * counts as nothing (it has no content); the flush's create then fails on its name and keeps it
     * ({@link EntryWriter}: a conflict).
     */
    private boolean stillMissing(Path file) {
        return !exists && !Files.exists(file);
    }

    /**
     * As {@link #verified(Path)}, given the attributes {@code a} the caller just read (null: no file).
     * Sound without a second {@code lstat}: the content is read after {@code a} was, so a change
     * before the read shows in it, and the new stamp's time of taking precedes the read, so a change
     * after it within the same clock tick leaves the new stamp racy (checked by content again).
     */
    private FileStamp verified(Path file, BasicFileAttributes a) throws IOException {
        if (!exists) return a == null ? this : null;
        if (a == null || a.size() != size) return null;
        if (sameTimeAndKey(a) && !racy()) return this;
        long taken = nowNanos();
        byte[] now = readContent(file);
        if (now == null || now.length != size || crcOf(now) != crc) return null;
        return of(a, crc, taken);
    }

    private static final LongAdder CONTENT_READS = new LongAdder();

    /** The whole content of {@code file}, or null if it does not exist; counted ({@link #contentReads()}). */
    private static byte[] readContent(Path file) throws IOException {
        CONTENT_READS.increment();
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException gone) {
            return null;
        }
    }

    /** How many times any stamp read a file's whole content since the JVM started (tests count reads with it). */
    static long contentReads() {
        return CONTENT_READS.sum();
    }
}
