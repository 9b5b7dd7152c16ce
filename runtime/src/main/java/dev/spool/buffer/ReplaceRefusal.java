package dev.spool.buffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Why a buffered snapshot of a file must be refused: the host's own write ({@code FileOutputStream}
 * truncating the file in place, or creating it) and Spool's write (a temp file renamed over the
 * target, {@link AtomicFiles}) would not end alike, or the host's would fail at the call and
 * Spool's would not. A refused snapshot is written by the host itself, so it meets exactly its own
 * result and error. {@link #reason} answers null when buffering is equivalent.
 *
 * <p>Refused, with the plain outcome that differs:
 * <ul>
 * <li>a new file whose folder is missing, not a folder, or not writable: the plain write fails at
 *     the call ({@code FileNotFoundException}); Spool's would fail only at the flush;</li>
 * <li>a path that is not a regular file (a folder, a device, a dangling link): plain fails or
 *     writes through it;</li>
 * <li>a file the process cannot write ({@code 0444} for a non-root user): plain fails, a rename
 *     would replace it;</li>
 * <li>a writable file in a folder the process cannot write: plain succeeds, a rename fails;</li>
 * <li>a file with more than one hard link: plain changes every name, a rename detaches this one
 *     (a second link that is our own temp name of the same file, left by a kill between
 *     {@link AtomicFiles#createNew}'s link and unlink, is removed instead, costing one read of the
 *     folder);</li>
 * <li>a file owned by another user or group than a new file would get: plain keeps the owner;</li>
 * <li>a mount point (a bind-mounted single file, a file on another device than its folder): plain
 *     writes it, a rename fails ({@code EBUSY}/{@code EXDEV}).</li>
 * </ul>
 * Not detected (documented in RELIABILITY.md): POSIX ACLs and other extended attributes (the
 * renamed file has the folder's default ACL and no xattrs), the immutable/append-only flags (both
 * writes fail, Spool's only at the flush), a mount, or a change of the folder's permissions, device,
 * mode or group, made less than {@link #MOUNTS_MAX_AGE_NANOS} before; the other way round, a
 * refusal that goes away without a change to the file's inode, links, mode or owners is still
 * {@linkplain #stillRefused remembered} for up to that time.
 *
 * <p>Cost: one {@code lstat} and one {@code access} of the file; its folder's {@code lstat},
 * {@code stat} and {@code access}, and {@code /proc/self/mountinfo}, at most once per
 * {@link #MOUNTS_MAX_AGE_NANOS} (per folder, and for the mount table). The buffer calls it only when
 * it stamps a file afresh (its first write after a flush, or after someone else changed it). A
 * refused file is {@linkplain #remember remembered} for the same second: its next puts cost one
 * {@code lstat} while it keeps its inode, links, mode and owners, not a read of its content and
 * every check again. Thread-safe.
 */
final class ReplaceRefusal {
    static final long MOUNTS_MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String UNIX = "unix:mode,nlink,uid,gid,dev,ino";
    private static final long[] IDS = processIds();
    private static volatile Mounts mounts = new Mounts(Set.of(), Long.MIN_VALUE);

    private record Mounts(Set<String> points, long readAtNanos) {}

    private record Folder(boolean isFolder, boolean writable, Map<String, Object> unix, long readAtNanos) {}

    private static final int FOLDERS_LIMIT = 4096;
    private static final ConcurrentHashMap<Path, Folder> FOLDERS = new ConcurrentHashMap<>();

    /** A refusal: the file's {@code UNIX} attributes it was decided on, and when its oldest fact was read. */
    private record Refused(Map<String, Object> attributes, long sinceNanos) {}
    /** Full examinations made ({@link #reason}), for tests. */
    static final LongAdder EXAMINED = new LongAdder();
    private static final ConcurrentHashMap<Path, Refused> REFUSED = new ConcurrentHashMap<>();

    private ReplaceRefusal() {}

    /**
     * Null when buffering {@code file} ends like the host's own write; else why not. {@code disk}
     * is the caller's fresh stamp of it: an existing stamp is of a regular file ({@link FileStamp#load}
     * refuses anything else), so that is not asked again.
     */
    static String reason(Path file, FileStamp disk) {
        EXAMINED.increment();
        long[] since = {System.nanoTime()};
        @SuppressWarnings("unchecked")
        Map<String, Object>[] seen = new Map[1];
        String why = examine(file, disk, seen, since);
        if (why != null && disk.exists()) remember(file, seen[0], since[0]);
        return why;
    }

    /** {@link #reason}'s checks; {@code seen[0]}: the file's attributes they used; {@code since[0]}: when the oldest fact was read. */
    private static String examine(Path file, FileStamp disk, Map<String, Object>[] seen, long[] since) {
        Path dir = file.getParent();
        if (dir == null) return "not a file path";
        try {
            Folder folder = folder(dir);
            since[0] = Math.min(since[0], folder.readAtNanos());
            if (!folder.isFolder()) return "its folder " + dir + " is missing or not a folder";
            if (!folder.writable()) return "its folder is not writable (the rename would fail)";
            if (!disk.exists()) return null;
            if (!Files.isWritable(file)) return "the file is not writable";
            Map<String, Object> f = unixOrNull(file);
            if (f != null && (Integer) f.get("nlink") > 1 && AtomicFiles.dropLeftoverLinks(file, disk.fileKey()) > 0) {
                f = unixOrNull(file); // a kill between a create's link and unlink had left our temp name
            }
            seen[0] = f;
            if (f != null && folder.unix() != null) {
                Map<String, Object> d = folder.unix();
                if ((Integer) f.get("nlink") > 1) return "the file has " + f.get("nlink") + " hard links";
                if (!f.get("dev").equals(d.get("dev"))) return "the file is on another device than its folder";
                if (IDS != null && ((Integer) f.get("uid")).longValue() != IDS[0]) return "the file has another owner";
                long newGid = ((Integer) d.get("mode") & 02000) != 0 ? ((Integer) d.get("gid")).longValue()
                        : IDS == null ? -1 : IDS[1];
                if (newGid >= 0 && ((Integer) f.get("gid")).longValue() != newGid) return "the file has another group";
            }
            if (isMountPoint(file)) {
                since[0] = Math.min(since[0], mounts.readAtNanos());
                return "the file is a mount point (bind-mounted)";
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return "cannot examine it (" + e + ")";
        }
    }

    /**
     * What the refusal needs of a folder, read at most once per {@link #MOUNTS_MAX_AGE_NANOS} per
     * folder (as the mount table): three system calls a file saved on every fresh stamp of a file
     * in a folder already seen. A folder made unwritable, or given another device, mode or group,
     * is noticed within that second.
     */
    private static Folder folder(Path dir) throws IOException {
        long now = System.nanoTime();
        Folder known = FOLDERS.get(dir);
        if (known != null && now - known.readAtNanos() <= MOUNTS_MAX_AGE_NANOS) return known;
        Map<String, Object> unix = unixOrNull(dir);
        boolean isFolder = Files.isDirectory(dir);
        Folder f = new Folder(isFolder, isFolder && Files.isWritable(dir), unix, now);
        if (FOLDERS.size() >= FOLDERS_LIMIT) FOLDERS.clear();
        FOLDERS.put(dir, f);
        return f;
    }

    private static Map<String, Object> unixOrNull(Path p) throws IOException {
        try {
            return Files.readAttributes(p, UNIX, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException notUnix) {
            return null;
        }
    }

    /** Makes the next check read the mount table and the folders afresh (tests: a mount made just now). */
    static void forgetMounts() {
        mounts = new Mounts(Set.of(), Long.MIN_VALUE);
        FOLDERS.clear();
        REFUSED.clear();
    }

    /**
     * Remembers that {@code file} was just refused, with the attributes the refusal was decided on
     * ({@code attributes}; read now when the refusal came before them). The host then writes the file
     * itself, in place, which changes none of those: its next put would read the whole content (a
     * fresh stamp) and every check again, only to be refused again, on the caller's thread, on
     * every call. {@link #stillRefused} answers it with one {@code lstat}.
     */
    private static void remember(Path file, Map<String, Object> attributes, long sinceNanos) {
        try {
            Map<String, Object> a = attributes != null ? attributes : unixOrNull(file);
            if (a == null) return; // not a Unix file system: the next put examines the file again
            if (REFUSED.size() >= FOLDERS_LIMIT) REFUSED.clear();
            REFUSED.put(file, new Refused(a, sinceNanos));
        } catch (IOException | RuntimeException gone) {
            // nothing remembered: the next put examines the file again
        }
    }

    /**
     * Whether {@code file} was {@linkplain #remember refused} on facts read less than
     * {@link #MOUNTS_MAX_AGE_NANOS} ago (the oldest of them: its folder's and the mount table's
     * cached ones count from when they were read) and is still the same file with the same links,
     * mode and owners (one {@code lstat}). What it does not look at (its folder, the mount table, an
     * ACL, a read-only mount, the immutable flag) is the same second's staleness the folder and
     * mount caches already have. Never says a file may be buffered: only that it is
     * refused again, where the full check would say so too or was about to look again anyway.
     */
    static boolean stillRefused(Path file) {
        Refused r = REFUSED.get(file);
        if (r == null) return false;
        try {
            if (System.nanoTime() - r.sinceNanos() <= MOUNTS_MAX_AGE_NANOS && r.attributes().equals(unixOrNull(file))) {
                return true;
            }
        } catch (IOException | RuntimeException changed) {
            // gone or unreadable: examine it afresh
        }
        REFUSED.remove(file, r);
        return false;
    }

    private static boolean isMountPoint(Path file) {
        Mounts m = mounts;
        long now = System.nanoTime();
        if (m.readAtNanos() == Long.MIN_VALUE || now - m.readAtNanos() > MOUNTS_MAX_AGE_NANOS) {
            m = new Mounts(readMountPoints(), now);
            mounts = m;
        }
        return m.points().contains(file.toString());
    }

    /** Mount points from {@code /proc/self/mountinfo} (field 5, octal escapes decoded); empty elsewhere. */
    static Set<String> readMountPoints() {
        Set<String> points = new HashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] fields = line.split(" ");
                if (fields.length > 4) points.add(unescape(fields[4]));
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the device comparison above still catches a file mounted from elsewhere
        }
        return points;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** {effective uid, effective gid} from {@code /proc/self/status}, or null where unknown. */
    private static long[] processIds() {
        try {
            long uid = -1;
            long gid = -1;
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) uid = Long.parseLong(line.split("\\s+")[2]);
                if (line.startsWith("Gid:")) gid = Long.parseLong(line.split("\\s+")[2]);
            }
            return uid >= 0 && gid >= 0 ? new long[] {uid, gid} : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
