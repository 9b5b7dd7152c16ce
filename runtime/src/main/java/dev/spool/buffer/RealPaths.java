package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The key the buffer uses for a file: its real path (absolute, symlinks and {@code ..} resolved).
 * For a file that does not exist yet: the real path of the nearest existing ancestor plus the
 * remaining names, normalised. Two paths naming the same file thus share one buffer entry.
 */
public final class RealPaths {
    private RealPaths() {}

    /** The real path of {@code file}; see the class comment for missing files. */
    public static Path of(Path file) {
        Path abs = file.toAbsolutePath();
        try {
            return abs.toRealPath();
        } catch (NoSuchFileException missing) {
            Path parent = abs.getParent();
            if (parent == null) return abs.normalize();
            Path name = abs.getFileName();
            if (name.toString().equals("..")) return of(parent.getParent() == null ? parent : parent.getParent());
            if (name.toString().equals(".")) return of(parent);
            return of(parent).resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the real path of " + file, e);
        }
    }
}
