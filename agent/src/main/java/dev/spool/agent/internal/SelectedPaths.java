package dev.spool.agent.internal;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-call answer to "is this {@code File} buffered, and under which path?" for the Jackson
 * hooks: the absolute {@link Path} of a file that {@link PathFilter} selects, or null. The globs
 * are matched against the normalised path, but the path handed on keeps every {@code ..} as the
 * caller named it: {@code link/../doc.json} is the file beside the folder {@code link} points to
 * (the OS resolves {@code link} first), not {@code ./doc.json}, which a lexical normalisation would
 * give; the buffer's {@code RealPaths} resolves it as the OS does.
 *
 * <p><b>Cache.</b> Turning the caller's path into an absolute normalised path and matching the
 * globs costs two path allocations and a regular-expression match per call (about a tenth of a
 * buffered write's cost, profiled). Both depend only on the path string: the filter is immutable
 * and a JVM's working directory, against which {@code toAbsolutePath} resolves, never changes.
 * So the answer is remembered per path string, and a selected file always gets the same
 * {@code Path} instance: the buffer's own lookups ({@code RealPaths}, its entry table) then find
 * it by identity, with its hash already computed. Only names that pass
 * {@link PathFilter#mightMatch} reach the cache (the non-matching call stays a few
 * {@code endsWith}); it holds at most {@link #CACHE_LIMIT} paths and is cleared when full.
 *
 * <p>Thread-safe (a {@link ConcurrentHashMap}; a racing miss computes the same answer twice).
 * <pre>{@code
 * Path p = selected.of(file); // null: not buffered, the host's own call runs
 * }</pre>
 */
final class SelectedPaths {

    static final int CACHE_LIMIT = 65_536;
    /** The cached answer for a path the filter does not select. */
    private static final Object NOT_SELECTED = new Object();

    private final PathFilter filter;
    private final ConcurrentHashMap<String, Object> answers = new ConcurrentHashMap<>();

    SelectedPaths(PathFilter filter) {
        this.filter = filter;
    }

    /** The absolute path of {@code file} ({@code ..} kept) if the filter selects it for buffering, else null. */
    Path of(File file) {
        String name = file.getPath();
        if (!filter.mightMatch(name)) {
            return null;
        }
        Object known = answers.get(name);
        if (known != null) {
            return known == NOT_SELECTED ? null : (Path) known;
        }
        Path path;
        try {
            path = file.toPath().toAbsolutePath();
        } catch (InvalidPathException e) {
            return null; // not a path this file system can name: never buffered (not cached, rare)
        }
        Path selected = filter.matches(path.normalize()) ? path : null;
        if (answers.size() >= CACHE_LIMIT) {
            answers.clear();
        }
        answers.put(name, selected == null ? NOT_SELECTED : selected);
        return selected;
    }
}
