package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
 * every time. The cache holds at most {@link #CACHE_LIMIT} paths and is cleared when full.
 * Thread-safe.
 */
public final class RealPaths {
    static final int CACHE_LIMIT = 65_536;
    private static final ConcurrentHashMap<Path, Path> IDENTITY = new ConcurrentHashMap<>();

    private RealPaths() {}

    /** The real path of {@code file}; see the class comment for missing files and the cache. */
    public static Path of(Path file) {
        Path cached = IDENTITY.get(file);
        if (cached != null) return cached;
        Path abs = file.toAbsolutePath();
        Path real = resolve(abs);
        if (real.equals(abs.normalize())) {
            if (IDENTITY.size() >= CACHE_LIMIT) IDENTITY.clear();
            IDENTITY.put(file, real);
        }
        return real;
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

    /** Forgets every cached resolution (tests). */
    static void clearCache() {
        IDENTITY.clear();
    }

    static boolean isCached(Path file) {
        return IDENTITY.containsKey(file);
    }
}
