package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The key the buffer uses for a file: its real path (absolute, symlinks and {@code ..} resolved).
 * For a file that does not exist yet: the real path of the nearest existing ancestor plus the
 * remaining names, normalised. Two paths naming the same file thus share one buffer entry.
 *
 * <p><b>Cache.</b> Resolving costs one {@code realpath} system call (several for a missing
 * file), on every buffered write and read. A path whose resolution is just its normalised
 * absolute form (no symlink, no {@code ..} through a link) is remembered, so later calls are a
 * map lookup. Only such identity resolutions are cached: the key written to disk is then the
 * very path the caller named, so even if a folder on it is later replaced by a symlink, Spool
 * writes where the caller's own write would have gone. Paths through symlinks are resolved
 * every time. The folders of cached paths are remembered too (same reasoning): a new name in one
 * costs one {@code access} (anything there?; an existing file then one {@code lstat}: is it a
 * symlink?) instead of a {@code realpath} walk. The cache holds at
 * most {@link #CACHE_LIMIT} paths (about 115 bytes each) and is cleared when full. The limit
 * follows the heap, so a working set of up to that many files is resolved from the cache: a miss
 * costs ~7 us of CPU (an {@code lstat} and its attribute objects), a hit ~0.1 us, and a
 * round-robin working set larger than the cache misses on every call (100,000 files against the
 * former 65,536: ~600,000 misses, seconds of the writer's CPU, in the grid's 100,000 x 5 cell).
 * Thread-safe.
 */
@Internal
public final class RealPaths {
    /**
     * Paths cached at most: one per 8 KiB of the maximum heap, 65,536 to 262,144 (7 to 30 MB at
     * most; 262,144 from a 2 GiB heap on).
     */
    static final int CACHE_LIMIT = cacheLimit(Runtime.getRuntime().maxMemory());
    private static final ConcurrentHashMap<Path, Path> IDENTITY = new ConcurrentHashMap<>();
    /** Folders that resolved to themselves (the folder of an identity-cached path). */
    private static final ConcurrentHashMap<Path, Boolean> FOLDERS = new ConcurrentHashMap<>();

    private RealPaths() {}

    /** The real path of {@code file}; see the class comment for missing files and the cache. */
    public static Path of(Path file) {
        return of(file, null);
    }

    /**
     * As {@link #of(Path)}; {@code seenMissing[0]} is set when resolving it just found nothing at
     * that path by following it ({@code access(F_OK)}, one system call and no exception): no file,
     * or a symlink whose target is missing. A caller about to stamp the file may take that for
     * "missing" only if what it then does never replaces an existing name (the buffer creates such
     * a file with {@link AtomicFiles#createNew}, which fails on a dangling symlink's name too).
     * With a second element, {@code seenMissing[1]} is set when the path returned is
     * {@code file}'s own lexical form ({@link #lexical}): found so in the cache, or resolved so now.
     */
    static Path of(Path file, boolean[] seenMissing) {
        Path cached = IDENTITY.get(file);
        if (cached != null) {
            if (seenMissing != null && seenMissing.length > 1) seenMissing[1] = true;
            return cached;
        }
        Path abs = file.toAbsolutePath();
        Path real = inKnownFolder(abs, seenMissing);
        if (real == null) {
            WALKS.increment();
            real = resolve(abs);
        }
        if (real.equals(abs.normalize())) {
            if (seenMissing != null && seenMissing.length > 1) seenMissing[1] = true;
            if (IDENTITY.size() >= CACHE_LIMIT) IDENTITY.clear();
            IDENTITY.put(file, real);
            rememberFolder(real.getParent());
        }
        return real;
    }

    /**
     * Remembers {@code folder}, which resolved to itself, and its ancestors (which then did too:
     * {@code realpath} would have changed the path at any symlink on it), up to one already known.
     */
    private static void rememberFolder(Path folder) {
        for (Path f = folder; f != null && !FOLDERS.containsKey(f); f = f.getParent()) {
            if (FOLDERS.size() >= CACHE_LIMIT) FOLDERS.clear();
            FOLDERS.put(f, Boolean.TRUE);
        }
    }

    /**
     * Whether {@code folder} resolves to itself: known, or a real folder (one {@code lstat}: not a
     * symlink) in a folder that does, found the same way. A new folder under a known one (a new
     * job folder in a workspace) thus costs one {@code lstat} at its first file, not two
     * {@code realpath} walks and a {@link NoSuchFileException} for the missing file.
     */
    private static boolean knownFolder(Path folder) {
        if (FOLDERS.containsKey(folder)) return true;
        Path parent = folder.getParent();
        Path name = folder.getFileName();
        if (parent == null || name == null) return false;
        String n = name.toString();
        if (n.equals(".") || n.equals("..") || !knownFolder(parent)) return false;
        NAME_STATS.increment();
        try {
            if (!Files.readAttributes(folder, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isDirectory()) {
                return false; // a symlink, or not a folder: resolved in full
            }
        } catch (IOException e) {
            return false;
        }
        rememberFolder(folder);
        return true;
    }

    /**
     * A file not seen before in a folder whose resolution is known to be itself (a folder of a
     * cached path, its ancestors, and folders found under them: {@link #knownFolder}): instead of {@code realpath}'s walk of every component (twice for a missing
     * file), {@code access(F_OK)} of the file, and for an existing one its {@code lstat}. Nothing
     * there (no file, or a dangling symlink, whose real path is its own name too): {@code abs}, with
     * {@code seenMissing} set. Why {@code access} first: for a new name an {@code lstat} fails, and
     * the JDK turns that into a {@link NoSuchFileException}, whose stack trace cost ~10 us of CPU per
     * new file (3-4 times the system call; docs/BENCHMARKS.md, "write-once: the system calls").
     * Null when the folder is not known or the file is a symlink (resolved in full).
     */
    private static Path inKnownFolder(Path abs, boolean[] seenMissing) {
        Path folder = abs.getParent();
        Path name = abs.getFileName();
        if (folder == null || name == null || !knownFolder(folder)) return null;
        String n = name.toString();
        if (n.equals(".") || n.equals("..")) return null;
        if (!Files.exists(abs)) {
            if (seenMissing != null) seenMissing[0] = true;
            return abs; // the folder's real path (itself) plus the name
        }
        NAME_STATS.increment();
        try {
            if (Files.readAttributes(abs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isSymbolicLink()) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        return abs;
    }

    private static final LongAdder NAME_STATS = new LongAdder();
    private static final LongAdder WALKS = new LongAdder();

    /** How many paths {@link #of} resolved in full ({@code realpath} walks) since the JVM started (tests). */
    static long walks() {
        return WALKS.sum();
    }

    /** How many names (files, or folders under a known one) {@link #of} {@code lstat}ed since the JVM started (tests). */
    static long nameStats() {
        return NAME_STATS.sum();
    }

    /**
     * The real path of {@code file} resolved in full ({@code realpath}), whatever is cached, and
     * forgotten by the cache: for a name {@link #of(Path, boolean[])} took for missing that turned
     * out to be taken (a dangling symlink, a file made meanwhile).
     */
    static Path examined(Path file) {
        IDENTITY.remove(file);
        return resolve(file.toAbsolutePath());
    }

    private static Path resolve(Path abs) {
        try {
            return abs.toRealPath();
        } catch (NoSuchFileException missing) {
            Path parent = abs.getParent();
            if (parent == null) return abs.normalize();
            Path name = abs.getFileName();
            // "x/.." where x is missing: the OS resolves x first and fails (FileNotFoundException for the
            // host's own open); dropping both lexically would name another, openable file (issue 31, I)
            if (name.toString().equals("..")) throw new UncheckedIOException(missing);
            if (name.toString().equals(".")) return resolve(parent);
            return resolve(parent).resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the real path of " + abs, e);
        }
    }

    /** The absolute, normalised form of {@code file} (no system call): the key of a file the host names without symlinks. */
    static Path lexical(Path file) {
        return file.toAbsolutePath().normalize();
    }

    static int cacheLimit(long maxHeapBytes) {
        return (int) Math.max(65_536, Math.min(262_144, maxHeapBytes >> 13));
    }

    /** Forgets every cached resolution (tests). */
    static void clearCache() {
        IDENTITY.clear();
        FOLDERS.clear();
    }

    static boolean isCached(Path file) {
        return IDENTITY.containsKey(file);
    }
}
