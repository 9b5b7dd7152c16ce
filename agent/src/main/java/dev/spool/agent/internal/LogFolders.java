package dev.spool.agent.internal;

import java.nio.file.Path;

/**
 * The folders a routed log's files live in, for {@link RoutedLogReads}: the active file's folder
 * and, for a Logback {@code RollingFileAppender}, its rolling policy's archive folder (the
 * {@code fileNamePattern} up to its first conversion word, {@code %d} or {@code %i}). A path
 * <em>concerns</em> the log when it is one of these folders or a file directly in one, or anywhere
 * under the archive folder when the pattern makes sub-folders ({@code logs/%d{yyyy/MM}/app.%i.gz}).
 *
 * <p>Immutable. The pattern is read once, when the first look at a folder asks (on the host's
 * thread, holding no lock of Spool's; a getter of Logback's). Example:
 * <pre>{@code
 * LogFolders.of(Path.of("/logs/app.log"), appender).concerns(Path.of("/logs/app-2026-12-04.0")) // true
 * }</pre>
 */
final class LogFolders {

    private final Path folder;
    private final Path archives; // or null: none, or the same as folder
    private final boolean archiveTree;

    private LogFolders(Path folder, Path archives, boolean archiveTree) {
        this.folder = folder;
        this.archives = archives;
        this.archiveTree = archiveTree;
    }

    /** The folders of {@code file} (absolute, normalised; may be null) written by {@code owner} (a handler, an appender or null). */
    static LogFolders of(Path file, Object owner) {
        Path folder = file == null ? null : file.getParent();
        String pattern = rollingPattern(owner);
        int token = pattern == null ? -1 : pattern.indexOf('%');
        if (token < 0) {
            return new LogFolders(folder, null, false);
        }
        Path archives = LogFilePaths.absolute(pattern.substring(0, token) + "x"); // the prefix's folder, "logs/" or "logs/app-"
        archives = archives == null ? null : archives.getParent();
        String rest = pattern.substring(token);
        boolean tree = rest.indexOf('/') >= 0 || rest.indexOf(java.io.File.separatorChar) >= 0;
        return new LogFolders(folder, archives == null || (archives.equals(folder) && !tree) ? null : archives, tree);
    }

    /** Whether {@code target} (absolute, normalised) is one of the log's folders or a file in one. */
    boolean concerns(Path target) {
        if (within(folder, target)) {
            return true;
        }
        if (archives == null) {
            return false;
        }
        return archiveTree ? target.startsWith(archives) : within(archives, target);
    }

    private static boolean within(Path dir, Path target) {
        return dir != null && (target.equals(dir) || dir.equals(target.getParent()));
    }

    /** A Logback rolling appender's {@code getRollingPolicy().getFileNamePattern()}, or null. */
    private static String rollingPattern(Object owner) {
        if (owner == null) {
            return null;
        }
        try {
            Object policy = owner.getClass().getMethod("getRollingPolicy").invoke(owner);
            if (policy == null) {
                return null;
            }
            Object pattern = policy.getClass().getMethod("getFileNamePattern").invoke(policy);
            return pattern instanceof String s ? s : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // a JUL handler, another appender: its own folder only
        }
    }
}
