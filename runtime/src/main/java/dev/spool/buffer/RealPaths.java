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
 * costs one {@code lstat} (is it a symlink?) instead of a {@code realpath} walk. The cache holds at
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
     * As {@link #of(Path)}; {@code seenMissing[0]} is set when resolving it just found no file
     * (no symlink either) at that path with one {@code lstat}: a caller about to stamp the file
     * may take that for the stamp (the buffer, for a file it has no entry for).
     */
    static Path of(Path file, boolean[] seenMissing) {
        Path cached = IDENTITY.get(file);
        if (cached != null) return cached;
        Path abs = file.toAbsolutePath();
        Path real = inKnownFolder(abs, seenMissing);
        if (real == null) real = resolve(abs);
        if (real.equals(abs.normalize())) {
            if (IDENTITY.size() >= CACHE_LIMIT) IDENTITY.clear();
            IDENTITY.put(file, real);
            Path folder = real.getParent();
            if (folder != null && !FOLDERS.containsKey(folder)) {
                if (FOLDERS.size() >= CACHE_LIMIT) FOLDERS.clear();
                FOLDERS.put(folder, Boolean.TRUE);
            }
        }
        return real;
    }

    /**
     * A file not seen before in a folder whose resolution is known to be itself (a folder of a
     * cached path): one {@code lstat} of the file instead of {@code realpath}'s walk of every
     * component (twice for a missing file). Not a symlink (or missing): its real path is its own.
     * Null when the folder is not known or the file is a symlink (resolved in full).
     */
    private static Path inKnownFolder(Path abs, boolean[] seenMissing) {
        Path folder = abs.getParent();
        Path name = abs.getFileName();
        if (folder == null || name == null || !FOLDERS.containsKey(folder)) return null;
        String n = name.toString();
        if (n.equals(".") || n.equals("..")) return null;
        try {
            if (Files.readAttributes(abs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isSymbolicLink()) {
                return null;
            }
        } catch (NoSuchFileException missing) {
            if (seenMissing != null) seenMissing[0] = true;
            return abs; // a missing file: the folder's real path (itself) plus the name
        } catch (IOException e) {
            return null;
        }
        return abs;
    }

    private static Path resolve(Path abs) {
        try {
            return abs.toRealPath();
        } catch (NoSuchFileException missing) {
            Path parent = abs.getParent();
            if (parent == null) return abs.normalize();
            Path name = abs.getFileName();
            if (name.toString().equals("..")) return resolve(parent.getParent() == null ? parent : parent.getParent());
            if (name.toString().equals(".")) return resolve(parent);
            return resolve(parent).resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the real path of " + abs, e);
        }
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
