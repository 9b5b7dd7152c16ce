package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Atomic replacement of a file's content: a reader sees either the previous complete content or
 * the new complete content, never a torn file, even if the process is killed mid-write.
 *
 * <p>How: the content goes to a temp file in the target's own folder named
 * {@code .<name>.spool-tmp-<pid>-<start>-<ns>-<16 random hex digits>} ({@link TempName}: the
 * writing process, so a later sweep can prove it dead; then 64 bits from {@link SecureRandom}, so
 * the name cannot be predicted and planted), created exclusively ({@code CREATE_NEW}, {@code NOFOLLOW_LINKS}: a file
 * or symlink already at that name makes the create fail instead of being followed), written,
 * optionally {@code fsync}'d, then renamed over the target with {@code ATOMIC_MOVE}; with fsync the
 * folder is synced after the rename so the rename itself survives a power cut. On any failure the
 * temp file is deleted.
 *
 * <p>Leftovers: a process killed between create and rename leaves a temp file behind. It is hidden
 * (leading dot), never matches the target's name or a {@code *.json} glob, and is never read by
 * Spool; {@link #isTempFile} recognises it. {@link StaleTemps} removes it once its owner is
 * provably dead: a buffer sweeps each folder the first time it flushes it in a process, and
 * {@code spool recover <folder>} sweeps on demand.
 *
 * <p>Thread-safe: stateless apart from the shared {@link SecureRandom}.
 * <pre>{@code
 * AtomicFiles.write(Path.of("state.json"), bytes, false);
 * }</pre>
 */
@Internal
public final class AtomicFiles {
    /** The marker every temp file name carries. */
    public static final String TEMP_MARK = ".spool-tmp-";
    /** The marker every conflict file name carries: {@code <name>.spool-conflict-<millis>}. */
    public static final String CONFLICT_MARK = ".spool-conflict-";

    private static final SecureRandom RANDOM = new SecureRandom();
    /** What follows a target's name in this process's temp names, before the random part. */
    private static final String OWN_MARK = TempName.mark(TempOwner.self());
    private static final Set<StandardOpenOption> CREATE =
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    /** Permission bits seen to survive a create unchanged in this process (the umask does not strip them). */
    private static volatile Set<PosixFilePermission> keptByCreate = EnumSet.noneOf(PosixFilePermission.class);

    private AtomicFiles() {}

    /** Replaces {@code target}'s content with {@code content} atomically. */
    public static void write(Path target, byte[] content, boolean fsync) throws IOException {
        write(target, content, fsync, -1);
    }

    /**
     * As {@link #write(Path, byte[], boolean)}; with {@code mtimeNanos >= 0} the new file carries
     * that modification time (set on the temp file, before the rename, so no one else's change can
     * be stamped over).
     */
    public static void write(Path target, byte[] content, boolean fsync, long mtimeNanos) throws IOException {
        Path dir = folderOf(target);
        write(dir, target, createTemp(dir, target.getFileName().toString(), modeOf(target), true, content, fsync), fsync,
                mtimeNanos);
    }

    /**
     * As {@link #write(Path, byte[], boolean, long)} for a caller that has just read the target's
     * attributes itself ({@code mode}: the target's permissions, null for a new file): no second
     * stat of the target, and no {@code chmod} of the temp file when creating files with
     * {@code mode} has been seen to keep it exactly (the process's umask does not narrow it). The
     * caller must compare the mode of the replaced file with {@code mode} afterwards and call
     * {@link #modeNotKept} if they differ (a folder's default ACL can narrow where the umask did not).
     */
    static void writeKnownMode(Path target, byte[] content, boolean fsync, long mtimeNanos,
                               Set<PosixFilePermission> mode) throws IOException {
        Path dir = folderOf(target);
        write(dir, target, createTemp(dir, target.getFileName().toString(), mode, false, content, fsync), fsync,
                mtimeNanos);
    }

    /** Hard links seen to fail in this process for another reason than a taken name (a file system without them). */
    private static volatile boolean linksFail;

    /**
     * Creates {@code target} with {@code content} atomically if no name is there, never replacing
     * anything: the temp file is written (umask mode), then hard-linked to {@code target}
     * ({@code link(2)} fails on any existing name, a dangling symlink's too, and is atomic: no
     * window in which someone else's file made meanwhile could be replaced, which a check before a
     * {@code rename} leaves open), then its temp name is removed. False when the name was taken
     * (nothing written, the temp file gone). Five system calls: create, write, close, link, unlink.
     * On a file system without hard links: one {@code lstat} of the target, then the rename (a
     * check and a replace, not one step), remembered for the process.
     *
     * <p>A kill between the link and the unlink leaves the temp name as a second link to the new
     * file; {@link ReplaceRefusal} removes such a leftover when it meets it (same file, our name).
     */
    static boolean createNew(Path target, byte[] content, boolean fsync) throws IOException {
        Path dir = folderOf(target);
        Path tmp = createTemp(dir, target.getFileName().toString(), null, false, content, fsync);
        boolean linkFailed = false;
        try {
            if (!linksFail) {
                try {
                    Files.createLink(target, tmp);
                    dropTempName(tmp);
                    if (fsync) syncFolder(dir);
                    return true;
                } catch (FileAlreadyExistsException taken) {
                    deleteQuietly(tmp, taken);
                    return false;
                } catch (IOException | UnsupportedOperationException noLink) {
                    linkFailed = true; // perhaps no hard links here: the rename below tells
                }
            }
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(tmp);
                return false;
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            if (linkFailed) linksFail = true; // the rename worked where the link did not
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        if (fsync) syncFolder(dir);
        return true;
    }

    /**
     * Removes the temp name of a file just linked to its target; the file is created either way.
     * {@code File.delete} is one {@code unlink} ({@code Files.delete} first {@code lstat}s the name
     * to choose between unlink and rmdir). Not removed (swept by someone already, or an I/O error):
     * left as a second link, which {@link ReplaceRefusal} removes when it meets it.
     */
    private static void dropTempName(Path tmp) {
        try {
            tmp.toFile().delete();
        } catch (RuntimeException e) {
            // a security manager said no: left as above
        }
    }

    /**
     * Removes {@code file}'s temp names that are another link to the very same file ({@code key}:
     * its file key) and says how many: what a kill between {@link #createNew}'s link and unlink
     * leaves. Only names of our own pattern for {@code file}, only the same inode: removing them
     * removes no content. Reads the folder once.
     */
    static int dropLeftoverLinks(Path file, Object key) {
        Path dir = folderOf(file);
        String prefix = "." + file.getFileName() + TEMP_MARK;
        int dropped = 0;
        try (DirectoryStream<Path> names = Files.newDirectoryStream(dir)) {
            for (Path p : names) {
                if (!p.getFileName().toString().startsWith(prefix) || !isTempFile(p)) continue;
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (a.isRegularFile() && key != null && key.equals(a.fileKey())) {
                        Files.deleteIfExists(p);
                        dropped++;
                    }
                } catch (IOException gone) {
                    // swept meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // cannot list the folder: the file stays refused
        }
        return dropped;
    }

    /**
     * A file created with {@code wanted} came out with {@code got}: chmod it to {@code wanted} and
     * forget what was learned about creates keeping modes (learn again, per folder's behaviour).
     */
    static void modeNotKept(Path file, Set<PosixFilePermission> wanted) throws IOException {
        keptByCreate = EnumSet.noneOf(PosixFilePermission.class);
        Files.setPosixFilePermissions(file, wanted);
    }

    private static void write(Path dir, Path target, Path tmp, boolean fsync, long mtimeNanos) throws IOException {
        try {
            if (mtimeNanos >= 0) {
                // both times given: the JDK then needs no fstat for the one left out (open, futimens, close)
                FileTime t = FileTime.from(mtimeNanos, TimeUnit.NANOSECONDS);
                Files.getFileAttributeView(tmp, BasicFileAttributeView.class).setTimes(t, t, null);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        if (fsync) syncFolder(dir);
    }

    /**
     * Writes {@code content} beside {@code target} as {@code <name>.spool-conflict-<millis>}
     * (a {@code -<n>} suffix if that name is taken), atomically, never replacing an existing file.
     */
    public static Path writeConflict(Path target, byte[] content, boolean fsync) throws IOException {
        Path dir = folderOf(target);
        String base = target.getFileName() + CONFLICT_MARK + System.currentTimeMillis();
        Path tmp = createTemp(dir, target.getFileName().toString(), modeOf(target), true, content, fsync);
        try {
            for (int n = 0; ; n++) {
                Path candidate = dir.resolve(n == 0 ? base : base + "-" + n);
                try {
                    // a hard link never replaces an existing name; then drop the temp name
                    Files.createLink(candidate, tmp);
                    Files.delete(tmp);
                    if (fsync) syncFolder(dir);
                    return candidate;
                } catch (FileAlreadyExistsException taken) {
                    // try the next suffix
                } catch (UnsupportedOperationException noLinks) {
                    if (Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) continue;
                    Files.move(tmp, candidate, StandardCopyOption.ATOMIC_MOVE);
                    return candidate;
                }
            }
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
    }

    /** Whether {@code file}'s name is one of Spool's temp names, of this version or an earlier one ({@link TempName}; never data). */
    public static boolean isTempFile(Path file) {
        Path name = file.getFileName();
        return name != null && TempName.parse(name.toString()) != null;
    }

    /**
     * {@code mode}: the permissions the temp file must carry (null: the umask's default).
     * {@code alwaysChmod}: set them explicitly after the create even when creates are known to keep
     * them (the caller does not check the result).
     */
    private static Path createTemp(Path dir, String name, Set<PosixFilePermission> mode, boolean alwaysChmod,
                                   byte[] content, boolean fsync) throws IOException {
        byte[] r = new byte[8];
        RANDOM.nextBytes(r);
        Path tmp = dir.resolve("." + name + OWN_MARK + HexFormat.of().formatHex(r));
        // CREATE_NEW is O_CREAT|O_EXCL: fails on any existing name, symlinks included (never followed)
        try (FileChannel ch = mode == null ? FileChannel.open(tmp, CREATE)
                : FileChannel.open(tmp, CREATE, PosixFilePermissions.asFileAttribute(mode))) {
            if (mode != null) keepMode(tmp, mode, alwaysChmod); // exact, not narrowed by the umask
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) ch.write(buf);
            if (fsync) ch.force(true);
        } catch (FileAlreadyExistsException e) {
            throw e; // not ours: never delete it
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp, e);
            throw e;
        }
        return tmp;
    }

    /**
     * Makes {@code tmp}, just created with {@code mode}, carry exactly {@code mode}. The umask can
     * only narrow a create's mode, so a mode whose bits were all seen to survive a create needs no
     * {@code chmod} (one system call saved per file); otherwise the file's mode is read once and
     * what survived is remembered.
     */
    private static void keepMode(Path tmp, Set<PosixFilePermission> mode, boolean alwaysChmod) throws IOException {
        if (alwaysChmod) {
            Files.setPosixFilePermissions(tmp, mode);
            return;
        }
        Set<PosixFilePermission> kept = keptByCreate;
        if (kept.containsAll(mode)) return;
        Set<PosixFilePermission> got = Files.getPosixFilePermissions(tmp, LinkOption.NOFOLLOW_LINKS);
        if (got.equals(mode)) {
            EnumSet<PosixFilePermission> more = EnumSet.noneOf(PosixFilePermission.class);
            more.addAll(kept);
            more.addAll(mode);
            keptByCreate = more;
        } else {
            Files.setPosixFilePermissions(tmp, mode);
        }
    }

    /**
     * The mode of the existing target (the temp file, and so the replaced file or the conflict file,
     * gets it from its creation on: a 0600 file's content is never exposed), or null for a new file
     * (umask default) or a non-POSIX file system.
     */
    private static Set<PosixFilePermission> modeOf(Path target) {
        try {
            return Files.getPosixFilePermissions(target);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    private static Path folderOf(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null) throw new IllegalArgumentException("not a file path: " + target);
        return dir;
    }

    private static void syncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some platforms cannot open or sync a folder; the file itself was synced
        }
    }

    private static void deleteQuietly(Path tmp, Throwable failure) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
