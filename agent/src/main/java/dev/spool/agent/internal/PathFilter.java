package dev.spool.agent.internal;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spool.buffer.include} / {@code .exclude}: java.nio glob patterns matched against the
 * absolute, normalised path of a file. A file is buffered when some include matches and no
 * exclude does. Immutable, thread-safe.
 */
final class PathFilter {

    private final List<PathMatcher> include;
    private final List<PathMatcher> exclude;

    PathFilter(List<String> includeGlobs, List<String> excludeGlobs) {
        this.include = compile(includeGlobs);
        this.exclude = compile(excludeGlobs);
    }

    private static List<PathMatcher> compile(List<String> globs) {
        List<PathMatcher> matchers = new ArrayList<>();
        for (String glob : globs) {
            String g = glob.trim();
            if (!g.isEmpty()) {
                matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
            }
        }
        return List.copyOf(matchers);
    }

    boolean matches(Path absolute) {
        boolean in = false;
        for (PathMatcher m : include) {
            if (m.matches(absolute)) {
                in = true;
                break;
            }
        }
        if (!in) {
            return false;
        }
        for (PathMatcher m : exclude) {
            if (m.matches(absolute)) {
                return false;
            }
        }
        return true;
    }
}
