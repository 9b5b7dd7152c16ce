package dev.spool.agent.internal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A routed log's file as a path: a handler's or appender's file name read as an absolute, normalised
 * path (against the working folder, as the JDK resolves it), and the size of a file just opened. Names
 * that are no path, and unusable working folders, give null rather than an exception.
 *
 * <p>Stateless; any thread.
 */
final class LogFilePaths {
    private LogFilePaths() {
    }

    /** {@code name} as an absolute, normalised path (against the working folder, as the JDK resolves it), or null. */
    static Path absolute(String name) {
        try {
            return name == null ? null : absolute(Path.of(name));
        } catch (RuntimeException e) { // InvalidPathException
            return null;
        }
    }

    /** {@code path} absolute and normalised, as {@link #absolute(String)}, or null. */
    static Path absolute(Path path) {
        try {
            return path.toAbsolutePath().normalize();
        } catch (RuntimeException e) { // an unusable working folder
            return null;
        }
    }

    /**
     * The file's size now (just opened for a routed stream: nothing written through it yet), or -1. Spool's own
     * read, marked so: unmarked, the woven file classes took it for the host's look at a routed log's
     * folder, and a stream made during a Logback roll then drained logs first (LogReadArchiveIT: looks
     * lagged behind rolls, 2 of 6 runs under load).
     */
    static long sizeOf(Path file) {
        boolean was = dev.spool.bridge.Hooks.markSpoolThread(true);
        try {
            return file == null ? -1 : java.nio.file.Files.size(file);
        } catch (IOException | RuntimeException e) {
            return -1;
        } finally {
            dev.spool.bridge.Hooks.markSpoolThread(was);
        }
    }
}
